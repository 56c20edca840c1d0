import { describe, expect, it } from "vitest";
import { MultipartFormError, readMultipartForm, type MultipartLimits } from "./multipart-form.ts";

const limits: MultipartLimits = { maximumFileBytes: 1_000, maximumFiles: 4, maximumFields: 16, maximumFieldBytes: 1_024 };

/** A form encoded as a browser sends it (the platform's own multipart encoder), and its Content-Type. */
async function encode(form: FormData): Promise<{ bytes: Uint8Array; contentType: string }> {
  const request = new Request("http://localhost/api/upload-subtitles/", { method: "POST", body: form });
  return { bytes: new Uint8Array(await request.arrayBuffer()), contentType: request.headers.get("content-type") ?? "" };
}

/** The bytes as a stream of chunks of `chunkBytes`, as a socket delivers them. */
function streamOf(bytes: Uint8Array, chunkBytes: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + chunkBytes));
      offset += chunkBytes;
    },
  });
}

function sampleForm(): FormData {
  const form = new FormData();
  form.append("name", "Tåget till Malmö 🚆");
  form.append("is_public", "false");
  form.append("english", new File(["<tt>Hello, world.</tt>"], "Tåget.en.xml", { type: "application/xml" }));
  form.append("swedish", new File(["<tt>Hej, världen.</tt>"], "Tåget.sv.xml", { type: "text/xml" }));
  return form;
}

describe("given a multipart form read as it arrives", () => {
  it.each([1, 7, 64 * 1024])("should give the fields and files that the platform's formData() gives, in chunks of %i bytes", async (chunkBytes) => {
    const { bytes, contentType } = await encode(sampleForm());
    const form = await readMultipartForm(streamOf(bytes, chunkBytes), contentType, limits);
    const expected = await new Response(bytes, { headers: { "Content-Type": contentType } }).formData();

    expect(Object.fromEntries(form.fields)).toEqual({ name: expected.get("name"), is_public: expected.get("is_public") });
    for (const field of ["english", "swedish"]) {
      const file = expected.get(field) as File;
      expect(form.files.get(field)).toEqual({ fileName: file.name, bytes: new Uint8Array(await file.arrayBuffer()), tooLarge: false });
    }
  });

  it("should keep a name's last value when it is sent twice, as the form's parser did", async () => {
    const form = sampleForm();
    form.append("name", "Second");
    form.append("english", new File(["<tt>Again.</tt>"], "again.en.xml"));
    const { bytes, contentType } = await encode(form);
    const read = await readMultipartForm(streamOf(bytes, 1_000), contentType, limits);
    expect(read.fields.get("name")).toBe("Second");
    expect(read.files.get("english")?.fileName).toBe("again.en.xml");
  });

  it("should mark a file over the limit as too large, keeping no more than one byte past it", async () => {
    const form = new FormData();
    form.append("english", new File(["x".repeat(1_000)], "limit.en.xml"));
    form.append("swedish", new File(["y".repeat(50_000)], "large.sv.xml"));
    const { bytes, contentType } = await encode(form);
    const read = await readMultipartForm(streamOf(bytes, 4_096), contentType, limits);
    expect(read.files.get("english")).toMatchObject({ tooLarge: false });
    expect(read.files.get("english")?.bytes.byteLength).toBe(1_000);
    expect(read.files.get("swedish")).toMatchObject({ tooLarge: true });
    expect(read.files.get("swedish")?.bytes.byteLength).toBe(1_001);
  });

  it("should refuse a body cut before its last boundary, and a Content-Type without a boundary", async () => {
    const { bytes, contentType } = await encode(sampleForm());
    await expect(readMultipartForm(streamOf(bytes.slice(0, bytes.length - 40), 100), contentType, limits)).rejects.toBeInstanceOf(MultipartFormError);
    await expect(readMultipartForm(streamOf(bytes, 100), "multipart/form-data", limits)).rejects.toBeInstanceOf(MultipartFormError);
  });

  it("should refuse a body that fails while it is read", async () => {
    const { bytes, contentType } = await encode(sampleForm());
    let sent = false;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error("The connection was reset."));
        sent = true;
        controller.enqueue(bytes.slice(0, 200));
      },
    });
    await expect(readMultipartForm(failing, contentType, limits)).rejects.toBeInstanceOf(MultipartFormError);
  });
});
