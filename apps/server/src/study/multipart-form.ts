import { Busboy } from "@fastify/busboy";

/** A file of the form: its name as sent, its bytes, and whether it was longer than the limit (then cut after it). */
export type MultipartFile = { fileName: string; bytes: Uint8Array; tooLarge: boolean };

/** The form's text fields and files, each by its field name; a name sent twice keeps its last value. */
export type MultipartForm = { fields: Map<string, string>; files: Map<string, MultipartFile> };

export type MultipartLimits = { maximumFileBytes: number; maximumFiles: number; maximumFields: number; maximumFieldBytes: number };

/** The body is not multipart/form-data as its Content-Type announces, or it ends before its last boundary. */
export class MultipartFormError extends Error {}

/**
 * Reads a multipart/form-data body as it arrives, chunk by chunk, each parsed in its own turn of the event loop. The
 * web platform's `formData()` parses the whole body at once once it has arrived: 55–60 ms of this thread for the
 * largest subtitle upload (2.6 MB), during which no other request was answered. Files are kept up to
 * `maximumFileBytes` + 1 bytes (enough to tell that one is too large); fields and files past their limits are dropped.
 *
 * @example
 * const form = await readMultipartForm(request.body, request.headers.get("content-type") ?? "", limits);
 */
export async function readMultipartForm(body: ReadableStream<Uint8Array>, contentType: string, limits: MultipartLimits): Promise<MultipartForm> {
  const form: MultipartForm = { fields: new Map(), files: new Map() };
  let parser: ReturnType<typeof Busboy>;
  try {
    parser = Busboy({
      headers: { "content-type": contentType },
      limits: { fileSize: limits.maximumFileBytes + 1, files: limits.maximumFiles, fields: limits.maximumFields, fieldSize: limits.maximumFieldBytes },
    });
  } catch (error) {
    throw new MultipartFormError("The body's Content-Type is not multipart/form-data with a boundary.", { cause: error });
  }
  // The first failure, kept rather than rejected at once: nothing awaits these promises until the body has been read.
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  const filesRead: Promise<void>[] = [];
  const parsed = new Promise<void>((resolve) => {
    parser.on("file", (fieldName, stream, fileName) => {
      filesRead.push(
        new Promise<void>((fileRead) => {
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
          });
          stream.on("error", (error) => {
            fail(error);
            fileRead();
          });
          stream.on("end", () => {
            const whole = Buffer.concat(chunks, size);
            form.files.set(fieldName, { fileName, bytes: new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength), tooLarge: stream.truncated });
            fileRead();
          });
        }),
      );
    });
    parser.on("field", (fieldName, value) => form.fields.set(fieldName, value));
    parser.on("finish", resolve);
    parser.on("error", (error) => {
      fail(error);
      resolve();
    });
  });
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (failure === undefined) parser.write(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
    parser.end();
  } catch (error) {
    fail(error);
    await reader.cancel().catch(() => undefined);
  }
  // After a failure the parser may never finish nor end its files: nothing more is awaited.
  if (failure === undefined) await parsed;
  if (failure === undefined) await Promise.all(filesRead);
  if (failure !== undefined) throw new MultipartFormError("The multipart body could not be read.", { cause: failure });
  return form;
}
