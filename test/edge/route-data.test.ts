import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";

function edge(path: string) {
  return exports.default.fetch(new Request(`https://paydesk.test${path}`));
}

describe("route data", () => {
  it("serves React Router's own .data requests", async () => {
    const response = await edge("/help.data");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/x-script");
    expect(await response.text()).toContain("What is the difference between available and held money?");
  });

  it("answers /__serverLoader with the route's loader data as JSON", async () => {
    const response = await edge(`/__serverLoader?route=tos&url=${encodeURIComponent("/tos")}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    const body = (await response.json()) as { effectiveDate: string; sections: { id: string }[] };
    expect(body.sections.map((section) => section.id)).toContain("wallet");
    expect(response.headers.get("Cache-Control")).toContain("public");
  });

  it("serves the contact details through the same contract", async () => {
    const response = await edge("/__serverLoader?route=contact&url=https%3A%2F%2Fpaydesk.test%2Fcontact");
    expect(await response.json()).toMatchObject({ contact: { email: "support@paydesk.example" } });
  });

  it("never keeps the data of a page whose address holds a sign-in or recovery link", async () => {
    const statuses = async (page: string) => {
      const path = `/__serverLoader?route=help&url=${encodeURIComponent(page)}`;
      const seen: (string | null)[] = [];
      for (let i = 0; i < 3; i += 1) seen.push((await edge(path)).headers.get("X-Edge-Cache"));
      return seen;
    };
    // An ordinary address is kept at its second rendering and answered from memory after.
    expect((await statuses(`/help?q=${crypto.randomUUID()}`)).at(-1)).toBe("HIT");
    expect(await statuses(`/help?token=${crypto.randomUUID()}`)).toEqual(["BYPASS", "BYPASS", "BYPASS"]);
    expect(await statuses(`/help?x=1&link=${crypto.randomUUID()}`)).toEqual(["BYPASS", "BYPASS", "BYPASS"]);
  });

  it.each([
    ["no route", "/__serverLoader?url=/help"],
    ["no url", "/__serverLoader?route=help"],
    ["an empty route", "/__serverLoader?route=&url=/help"],
    ["a url that is not a URL", "/__serverLoader?route=help&url=http%3A%2F%2F%5B"],
    ["a url of another site", "/__serverLoader?route=help&url=https%3A%2F%2Fevil.example%2Fhelp"],
    ["a url that is not a page of the route", "/__serverLoader?route=help&url=/tos"],
  ])("answers 400 BAD_REQUEST for %s", async (_, path) => {
    const response = await edge(path);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: "BAD_REQUEST", message: expect.any(String) });
  });

  it.each([
    ["an unknown route id", "/__serverLoader?route=nope&url=/help"],
    ["an inherited property name", "/__serverLoader?route=constructor&url=/help"],
    ["a route without a server loader", "/__serverLoader?route=task&url=/task"],
  ])("answers 404 NOT_FOUND for %s", async (_, path) => {
    const response = await edge(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "NOT_FOUND" });
  });
});
