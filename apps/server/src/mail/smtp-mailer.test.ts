import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSmtpMailer } from "./smtp-mailer.ts";

type SmtpSink = { port: number; receivedMessages: string[]; close: () => Promise<void> };

/** Speaks just enough SMTP for nodemailer; answers RCPT TO with `recipientReply`. */
async function startSmtpSink(options: { recipientReply: string } = { recipientReply: "250 OK" }): Promise<SmtpSink> {
  const receivedMessages: string[] = [];
  const server = net.createServer((socket) => {
    let isReadingData = false;
    let buffered = "";
    let message = "";
    socket.write("220 sink.test ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffered += chunk.toString("utf8");
      let lineEnd: number;
      while ((lineEnd = buffered.indexOf("\r\n")) !== -1) {
        const line = buffered.slice(0, lineEnd);
        buffered = buffered.slice(lineEnd + 2);
        if (isReadingData) {
          if (line === ".") {
            isReadingData = false;
            receivedMessages.push(message);
            message = "";
            socket.write("250 Queued\r\n");
          } else {
            message += `${line.startsWith("..") ? line.slice(1) : line}\n`;
          }
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === "EHLO" || command === "HELO") socket.write("250 sink.test\r\n");
        else if (command === "MAIL") socket.write("250 OK\r\n");
        else if (command === "RCPT") socket.write(`${options.recipientReply}\r\n`);
        else if (command === "DATA") {
          isReadingData = true;
          socket.write("354 End data with <CR><LF>.<CR><LF>\r\n");
        } else if (command === "QUIT") {
          socket.end("221 Bye\r\n");
        } else socket.write("250 OK\r\n");
      }
    });
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  return { port, receivedMessages, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe("given an SMTP server that accepts mail", () => {
  let sink: SmtpSink;
  afterEach(async () => {
    await sink.close();
  });

  it("should deliver the text, HTML, sender and Reply-To over a real socket", async () => {
    sink = await startSmtpSink();
    const mailer = createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${sink.port}`, mailFrom: "Atelier <atelier@example.ch>" });
    const result = await mailer.sendMail({
      to: "painter@example.ch",
      subject: "A message",
      text: "Hello painter",
      html: "<p>Hello painter</p>",
      replyTo: { name: "Anna Muster", address: "anna@example.ch" },
    });
    expect(result).toEqual({ status: "sent" });
    expect(sink.receivedMessages).toHaveLength(1);
    const rawMessage = sink.receivedMessages[0] ?? "";
    expect(rawMessage).toContain("From: Atelier <atelier@example.ch>");
    expect(rawMessage).toContain("To: painter@example.ch");
    expect(rawMessage).toContain("Reply-To: Anna Muster <anna@example.ch>");
    expect(rawMessage).toContain("Subject: A message");
    expect(rawMessage).toContain("Hello painter");
    expect(rawMessage).toContain("<p>Hello painter</p>");
  });
});

describe("given an SMTP server that refuses the recipient", () => {
  let sink: SmtpSink;
  afterEach(async () => {
    await sink.close();
  });

  it("should return an error result instead of throwing", async () => {
    sink = await startSmtpSink({ recipientReply: "550 No such user" });
    const mailer = createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${sink.port}`, mailFrom: "atelier@example.ch" });
    const result = await mailer.sendMail({ to: "nobody@example.ch", subject: "A message", text: "Hello" });
    expect(result.status).toBe("error");
    expect(result.status === "error" && result.error.message).toMatch(/550/);
  });
});

describe("given no SMTP server listening", () => {
  it("should return an error result", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const mailer = createSmtpMailer({ smtpUrl: `smtp://127.0.0.1:${closedPort}`, mailFrom: "atelier@example.ch" });
    expect((await mailer.sendMail({ to: "painter@example.ch", subject: "A message", text: "Hello" })).status).toBe("error");
  });
});
