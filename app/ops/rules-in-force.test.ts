import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { defaultTimeLimits } from "#contract/time-limits";
import { opsMessages } from "../messages/ops";
import { TimeLimitsInForce } from "./rules-in-force";

/** The overview's time-limits card for what the origin answered, under a root at the product's times. */
function timesCard(enforced: Parameters<typeof TimeLimitsInForce>[0]["enforced"]): string {
  const router = createMemoryRouter(
    [{ id: "root", path: "/", loader: () => null, Component: () => createElement(TimeLimitsInForce, { enforced }) }],
    { hydrationData: { loaderData: { root: { config: {}, language: "en" } } } },
  );
  return renderToString(createElement(RouterProvider, { router }));
}

describe("TimeLimitsInForce: the overview's card of the origin's time limits (docs/decisions/057-deploy-session-idle-days.md)", () => {
  const text = opsMessages.en;

  it("shows a session's idle days and agrees with pages at the product's times", () => {
    const card = timesCard(defaultTimeLimits);
    expect(card).toContain(text.times.sessionIdle);
    expect(card).toContain("30 days");
    expect(card).toContain(text.timesAgree);
  });

  it("stands against an origin deployed before sessions' idle days were set per deploy, and says its times differ", () => {
    const { session: _, ...older } = defaultTimeLimits;
    const card = timesCard(older);
    expect(card).toContain("30 minutes");
    expect(card).not.toContain(text.times.sessionIdle);
    expect(card).toContain(text.timesDiffer);
  });
});
