import { describe, expect, it } from "vitest";
import { csvRecord, csvStream, utf8Bom, yuan } from "./csv";

/** The stream's text, its byte order mark kept (Response.text() would drop it). */
async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
}

async function* pagesOf<T>(...pages: T[][]): AsyncGenerator<T[]> {
  for (const page of pages) yield page;
}

describe("a CSV record", () => {
  it("ends with CRLF and leaves plain cells as they are, numbers and Chinese included", () => {
    expect(csvRecord(["plain", 42, "李伟", "a b"])).toBe("plain,42,李伟,a b\r\n");
  });

  it("writes nothing for a null cell, and an empty string as nothing too", () => {
    expect(csvRecord([null, "", "x", null])).toBe(",,x,\r\n");
  });

  it("quotes a cell holding a comma, a quote or a line break, doubling quotes", () => {
    expect(csvRecord(["a,b"])).toBe('"a,b"\r\n');
    expect(csvRecord(['He said "hi"'])).toBe('"He said ""hi"""\r\n');
    expect(csvRecord(["line one\nline two"])).toBe('"line one\nline two"\r\n');
    expect(csvRecord(["line one\r\nline two"])).toBe('"line one\r\nline two"\r\n');
    expect(csvRecord(["line one\rline two"])).toBe('"line one\rline two"\r\n');
    expect(csvRecord(['{"role":"support","note":"a, b"}'])).toBe('"{""role"":""support"",""note"":""a, b""}"\r\n');
  });

  it.each([
    ["=1+2", "'=1+2"],
    ["+86 138", "'+86 138"],
    ["-5", "'-5"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["＝1+2", "'＝1+2"],
  ])("protects %j against formula injection with a leading '", (cell, written) => {
    expect(csvRecord([cell, "next"])).toBe(`${written},next\r\n`);
  });

  it("protects and quotes a cell that needs both", () => {
    expect(csvRecord(['=HYPERLINK("http://evil.example","click")'])).toBe('"\'=HYPERLINK(""http://evil.example"",""click"")"\r\n');
    expect(csvRecord(["\rcmd"])).toBe('"\'\rcmd"\r\n');
    expect(csvRecord(["-1,2"])).toBe('"\'-1,2"\r\n');
  });

  it("leaves a formula character that is not first, and negative numbers, alone", () => {
    expect(csvRecord(["a=b", "x-y", -5])).toBe("a=b,x-y,-5\r\n");
  });
});

describe("a CSV stream", () => {
  it("starts with a byte order mark and the header, then a record per row of every page", async () => {
    const stream = csvStream({
      header: ["id", "name"],
      pages: pagesOf(
        [{ id: 1, name: "a" }],
        [],
        [
          { id: 2, name: "=b" },
          { id: 3, name: "c,d" },
        ],
      ),
      cellsOf: (row) => [row.id, row.name],
      onError: () => {},
    });
    expect(await textOf(stream)).toBe(`${utf8Bom}id,name\r\n1,a\r\n2,'=b\r\n3,"c,d"\r\n`);
  });

  it("reads a page only when the reader asks for more", async () => {
    const read: number[] = [];
    async function* counted(): AsyncGenerator<number[]> {
      for (let page = 1; page <= 3; page += 1) {
        read.push(page);
        yield [page];
      }
    }
    const reader = csvStream({ header: ["n"], pages: counted(), cellsOf: (n) => [n], onError: () => {} }).getReader();
    await reader.read(); // the header
    expect(read).toEqual([]);
    await reader.read();
    expect(read).toEqual([1]);
    await reader.cancel();
    expect(read).toEqual([1]);
  });

  it("ends with an error, reported, when a page fails part way", async () => {
    const reported: unknown[] = [];
    async function* failing(): AsyncGenerator<number[]> {
      yield [1];
      throw new Error("D1 went away");
    }
    const stream = csvStream({ header: ["n"], pages: failing(), cellsOf: (n) => [n], onError: (error) => reported.push(error) });
    await expect(textOf(stream)).rejects.toThrow("D1 went away");
    expect(reported).toHaveLength(1);
  });
});

describe("an amount in yuan", () => {
  it.each([
    [0, "0.00"],
    [5, "0.05"],
    [2_505, "25.05"],
    [-2_505, "-25.05"],
    [-1, "-0.01"],
    [1_000_000_000_000, "10000000000.00"],
  ])("writes %i fen as %s, a negative one without the formula guard's quote", (fen, written) => {
    expect(csvRecord([yuan(fen), fen, "-x"])).toBe(`${written},${fen},'-x\r\n`);
  });
});
