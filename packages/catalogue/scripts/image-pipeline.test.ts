import { mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assertSourceImagesMatchContent, buildImageCatalogue, chooseVariantWidths, processSourceImage } from "./image-pipeline.ts";

let workDirectory: string;

beforeEach(async () => {
  workDirectory = await mkdtemp(path.join(tmpdir(), "atelier-catalogue-pipeline-"));
});

afterEach(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

async function writeTestImage(fileName: string, width: number, height: number, colour: string): Promise<string> {
  const filePath = path.join(workDirectory, fileName);
  await writeFile(filePath, await sharp({ create: { width, height, channels: 3, background: colour } }).jpeg().toBuffer());
  return filePath;
}

describe("given the widths of an original", () => {
  it("should make all six standard widths from a large original", () => {
    expect(chooseVariantWidths(2400)).toEqual([320, 640, 720, 960, 1280, 1600]);
    expect(chooseVariantWidths(1600)).toEqual([320, 640, 720, 960, 1280, 1600]);
  });

  it("should never go wider than a small original, and keep its own width as the largest", () => {
    expect(chooseVariantWidths(700)).toEqual([320, 640, 700]);
    expect(chooseVariantWidths(1103)).toEqual([320, 640, 720, 960, 1103]);
    expect(chooseVariantWidths(200)).toEqual([200]);
  });
});

describe("given a small temporary photograph", () => {
  it("should make AVIF, WebP and JPEG without upscaling, named with an eight-character hash", async () => {
    const sourcePath = await writeTestImage("small.jpg", 400, 300, "#884422");
    const { entry, writtenFileCount } = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory: path.join(workDirectory, "out") });

    expect(entry.width).toBe(400);
    expect(entry.height).toBe(300);
    expect(entry.variants.map((variant) => `${variant.format}@${variant.width}`)).toEqual(["avif@320", "webp@320", "jpeg@320", "avif@400", "webp@400", "jpeg@400"]);
    expect(writtenFileCount).toBe(6);
    for (const variant of entry.variants) {
      expect(variant.fileName).toMatch(/^test-painting--1-(320|400)-[0-9a-f]{8}\.(avif|webp|jpg)$/);
      const written = await sharp(path.join(workDirectory, "out", variant.fileName)).metadata();
      expect(written.width).toBe(variant.width);
      expect(written.width).toBeLessThanOrEqual(400);
    }
  });

  it("should give the same file names to the same bytes and new names to changed bytes", async () => {
    const outputDirectory = path.join(workDirectory, "out");
    const sourcePath = await writeTestImage("photo.jpg", 400, 300, "#224488");
    const first = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory });
    const again = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory });
    await writeTestImage("photo.jpg", 400, 300, "#228844");
    const changed = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory });

    const namesOf = (result: typeof first) => result.entry.variants.map((variant) => variant.fileName);
    expect(namesOf(again)).toEqual(namesOf(first));
    expect(again.skippedFileCount).toBe(6);
    expect(again.writtenFileCount).toBe(0);
    for (const [index, fileName] of namesOf(changed).entries()) expect(fileName).not.toBe(namesOf(first)[index]);
  });

  it("should redo an output that is older than its source", async () => {
    const outputDirectory = path.join(workDirectory, "out");
    const sourcePath = await writeTestImage("photo.jpg", 330, 200, "#444444");
    const first = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory });
    const firstFile = path.join(outputDirectory, first.entry.variants[0]?.fileName ?? "");
    // Relative to the file system's own time stamps, not Date.now(): the two clocks need not agree.
    const longAgo = new Date((await stat(sourcePath)).mtimeMs - 60_000);
    await utimes(firstFile, longAgo, longAgo);

    const again = await processSourceImage({ sourcePath, imageKey: "test-painting--1", outputDirectory });
    expect(again.writtenFileCount).toBe(1);
    expect((await stat(firstFile)).mtimeMs).toBeGreaterThan(longAgo.getTime());
  });
});

describe("given a folder of photographs and the images named in content", () => {
  it("should write the manifest and remove files of earlier builds", async () => {
    const imagesDirectory = path.join(workDirectory, "images");
    const outputDirectory = path.join(workDirectory, "dist");
    await mkdir(path.join(outputDirectory, "images"), { recursive: true });
    await mkdir(imagesDirectory);
    await writeFile(path.join(outputDirectory, "images", "old-painting--1-320-deadbeef.jpg"), "stale");
    await writeFile(path.join(imagesDirectory, ".gitkeep"), "");
    await writeFile(path.join(imagesDirectory, "a-painting--1.jpg"), await sharp({ create: { width: 350, height: 500, channels: 3, background: "#aa3300" } }).jpeg().toBuffer());

    const result = await buildImageCatalogue({ imagesDirectory, outputDirectory, expectedImageKeys: ["a-painting--1"] });

    expect(Object.keys(result.manifest)).toEqual(["a-painting--1"]);
    expect(result.manifest["a-painting--1"]).toMatchObject({ width: 350, height: 500 });
    expect(result.removedFileCount).toBe(1);
    expect((await readdir(path.join(outputDirectory, "images"))).sort()).toEqual(result.manifest["a-painting--1"]?.variants.map((variant) => variant.fileName).sort());
  });

  it("should fail naming a photograph without content and an image without photograph", () => {
    expect(() => assertSourceImagesMatchContent(["stray-painting--1.jpg", "bridge-to-freedom--1.jpg"], ["bridge-to-freedom--1", "bridge-to-freedom--2"])).toThrow(
      /images\/stray-painting--1\.jpg has no entry in src\/content\.ts[\s\S]*'bridge-to-freedom--2' but there is no file images\/bridge-to-freedom--2\.jpg/,
    );
  });

  it("should pass when both lists name the same images", () => {
    expect(() => assertSourceImagesMatchContent(["a--1.jpg", "a--2.png"], ["a--2", "a--1"])).not.toThrow();
  });
});
