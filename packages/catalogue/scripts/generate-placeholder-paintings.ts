// Draws a deterministic abstract stand-in for every photograph named in src/content.ts that images/ lacks.
// Run once with `pnpm exec tsx scripts/generate-placeholder-paintings.ts`; existing files (real photographs)
// are never overwritten unless `--force` is given.
import { access, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { paintingContents } from "../src/content.ts";
import { createImageKey } from "../src/image-sources.ts";

const LONG_SIDE_PIXELS = 1600;

const PALETTES_BY_PAINTING_ID: Record<string, string[]> = {
  "the-friendship-of-david-and-jonathan": ["#2b3a55", "#c98b3c", "#e8d2a6", "#8c2f39", "#4f6d7a"],
  "the-face-i-dont-show": ["#1e1b24", "#7a2e3a", "#d9a6a0", "#3f4a6b", "#f0e2d0"],
  "the-price-of-light": ["#0f1a2b", "#f2c14e", "#f78154", "#4d9078", "#fbf5e6"],
  "bridge-to-freedom": ["#16324f", "#5aa9c9", "#e6e1c5", "#c44536", "#283d3b"],
  "you-were-there": ["#3d2c2e", "#a7c4a0", "#e8b4a0", "#6b4e71", "#f4ecd6"],
  "the-brothers-of-ursa-major": ["#0b0f2a", "#27408b", "#9fb4ff", "#f6f1d1", "#5b3a8c"],
  "janus-unmasked": ["#2d1e2f", "#d7b377", "#8f3b76", "#3e7cb1", "#ece4db"],
  "footprints-in-the-sand": ["#c8a97e", "#8a6a4b", "#f1e3c8", "#2f5d62", "#5e8b7e"],
};

function hashString(text: string): number {
  let hash = 2166136261;
  for (const character of text) {
    hash ^= character.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 16777619);
  }
  return hash >>> 0;
}

// mulberry32: tiny, deterministic, good enough for composition.
function createRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function parseSizeCm(sizeCm: string): { width: number; height: number } {
  const [width, height] = sizeCm.split("x").map(Number);
  if (!width || !height) throw new Error(`sizeCm '${sizeCm}' is not WIDTHxHEIGHT in centimetres.`);
  return { width, height };
}

function drawComposition(paintingId: string, width: number, height: number): string {
  const random = createRandom(hashString(paintingId));
  const palette = PALETTES_BY_PAINTING_ID[paintingId] ?? ["#333333", "#999999", "#dddddd", "#aa5533", "#335577"];
  const pick = () => palette[Math.floor(random() * palette.length)];
  const between = (low: number, high: number) => low + random() * (high - low);
  const elements: string[] = [`<rect width="${width}" height="${height}" fill="${palette[0]}"/>`];

  for (let field = 0; field < 6; field += 1) {
    const fieldWidth = between(0.3, 0.8) * width;
    const fieldHeight = between(0.15, 0.45) * height;
    const x = between(-0.1, 0.9) * width - fieldWidth / 2;
    const y = between(-0.1, 0.9) * height - fieldHeight / 2;
    elements.push(
      `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${fieldWidth.toFixed(1)}" height="${fieldHeight.toFixed(1)}" fill="${pick()}" opacity="${between(0.55, 0.9).toFixed(2)}" transform="rotate(${between(-8, 8).toFixed(1)} ${(x + fieldWidth / 2).toFixed(1)} ${(y + fieldHeight / 2).toFixed(1)})" filter="url(#soft)"/>`,
    );
  }

  for (let stroke = 0; stroke < 60; stroke += 1) {
    const startX = between(0, 1) * width;
    const startY = between(0, 1) * height;
    const angle = between(0, Math.PI * 2);
    const length = between(0.08, 0.35) * Math.max(width, height);
    const endX = startX + Math.cos(angle) * length;
    const endY = startY + Math.sin(angle) * length;
    const bendX = (startX + endX) / 2 + between(-0.3, 0.3) * length;
    const bendY = (startY + endY) / 2 + between(-0.3, 0.3) * length;
    const strokeWidth = between(0.004, 0.03) * Math.max(width, height);
    const colour = pick();
    // A few offset hairlines per stroke read as bristle marks rather than a vector line.
    for (let bristle = 0; bristle < 4; bristle += 1) {
      const offset = (bristle - 1.5) * strokeWidth * 0.25;
      elements.push(
        `<path d="M${(startX + offset).toFixed(1)} ${(startY - offset).toFixed(1)} Q${(bendX + offset).toFixed(1)} ${(bendY - offset).toFixed(1)} ${(endX + offset).toFixed(1)} ${(endY - offset).toFixed(1)}" stroke="${colour}" stroke-width="${(strokeWidth * between(0.35, 0.6)).toFixed(1)}" stroke-linecap="round" fill="none" opacity="${between(0.35, 0.8).toFixed(2)}"/>`,
      );
    }
  }
  return elements.join("");
}

function createPaintingSvg(paintingId: string, imageId: string, sizeCm: string): { svg: string; pixelWidth: number; pixelHeight: number } {
  const { width, height } = parseSizeCm(sizeCm);
  const scale = LONG_SIDE_PIXELS / Math.max(width, height);
  const pixelWidth = Math.round(width * scale);
  const pixelHeight = Math.round(height * scale);
  const canvasWidth = width * 10;
  const canvasHeight = height * 10;
  // Image 1 is the whole canvas; later images zoom into a region, as a photographer's detail shots would.
  const zoom = imageId === "1" ? 1 : imageId === "2" ? 2.2 : 4;
  const detailRandom = createRandom(hashString(`${paintingId}--${imageId}`));
  const viewWidth = canvasWidth / zoom;
  const viewHeight = canvasHeight / zoom;
  const viewX = zoom === 1 ? 0 : detailRandom() * (canvasWidth - viewWidth);
  const viewY = zoom === 1 ? 0 : detailRandom() * (canvasHeight - viewHeight);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${pixelWidth}" height="${pixelHeight}" viewBox="${viewX.toFixed(1)} ${viewY.toFixed(1)} ${viewWidth.toFixed(1)} ${viewHeight.toFixed(1)}" preserveAspectRatio="xMidYMid slice">`,
    `<defs><filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="${(canvasWidth * 0.012).toFixed(1)}"/></filter>`,
    `<filter id="weave"><feTurbulence type="fractalNoise" baseFrequency="0.35" numOctaves="1" seed="${hashString(paintingId) % 1000}"/><feColorMatrix type="saturate" values="0"/></filter></defs>`,
    drawComposition(paintingId, canvasWidth, canvasHeight),
    `<rect width="${canvasWidth}" height="${canvasHeight}" filter="url(#weave)" opacity="0.06"/>`,
    `</svg>`,
  ].join("");
  return { svg, pixelWidth, pixelHeight };
}

async function fileExists(filePath: string): Promise<boolean> {
  return access(filePath).then(
    () => true,
    () => false,
  );
}

const imagesDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "images");
const overwriteExisting = process.argv.includes("--force");
await mkdir(imagesDirectory, { recursive: true });

for (const painting of paintingContents) {
  for (const image of painting.images) {
    const outputPath = path.join(imagesDirectory, `${createImageKey(painting.id, image.id)}.jpg`);
    if (!overwriteExisting && (await fileExists(outputPath))) {
      console.info(`kept ${path.basename(outputPath)}`);
      continue;
    }
    const { svg } = createPaintingSvg(painting.id, image.id, painting.sizeCm);
    const jpeg = await sharp(Buffer.from(svg)).jpeg({ quality: 80, mozjpeg: true }).toBuffer();
    await writeFile(outputPath, jpeg);
    console.info(`wrote ${path.basename(outputPath)} (${Math.round(jpeg.length / 1024)} KB)`);
  }
}
