import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { TimeLimits } from "#contract/time-limits";
import { provideLayoutMessages } from "./i18n/layout-messages";
import { layoutCatalogue } from "./messages/layout.server";
import Check from "./routes/check";
import type { PublicConfig } from "./startup/public-config";

// The screen's signed-out prompt speaks the layout's words, which the server's entry provides.
provideLayoutMessages(layoutCatalogue);

/** /check's screen (app/routes/check.tsx) for a signed-out visitor, under a root whose data holds `config`. */
function checkScreenUnder(config: Partial<PublicConfig>): string {
  const screen = () =>
    createElement(Check as (props: { loaderData: unknown }) => ReturnType<typeof Check>, { loaderData: { state: "signed-out" } });
  const router = createMemoryRouter([{ id: "root", path: "/", loader: () => null, Component: screen }], {
    hydrationData: { loaderData: { root: { config } } },
  });
  return renderToString(createElement(RouterProvider, { router }));
}

describe("useTimeLimits: the deploy's time limits on a screen (docs/decisions/055-deploy-time-limits.md)", () => {
  it("are the product's where the configuration has none", () => {
    expect(checkScreenUnder({})).toContain("Submissions not checked within 72 hours are approved automatically.");
  });

  it("are the configuration's where the edge put the deploy's there", () => {
    const timeLimits: TimeLimits = {
      order: { payMinutes: 30 },
      claim: { submitHours: 24, autoApproveHours: 48 },
      session: { idleDays: 30 },
    };
    expect(checkScreenUnder({ timeLimits })).toContain("Submissions not checked within 48 hours are approved automatically.");
  });

  it("are stated with no figure where the edge could not read the deploy's: the product's may not be in force", () => {
    const screen = checkScreenUnder({ unread: ["limits", "timeLimits"] });
    expect(screen).toContain("Submissions not checked in time are approved automatically, at the time each one shows.");
    expect(screen).not.toMatch(/\d+ hours/);
    // Another setting unread leaves this one stated.
    expect(checkScreenUnder({ unread: ["textLimits"] })).toContain("within 72 hours");
  });
});
