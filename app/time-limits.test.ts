import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { TimeLimits } from "#contract/time-limits";
import { checkPageMessages } from "./messages/check";
import type { PublicConfig } from "./startup/public-config";
import { useTimeLimits } from "./time-limits";

/** /check's rule, as its screen words it (app/routes/check.tsx), under a root whose data holds `config`. */
function checkRuleUnder(config: Partial<PublicConfig>): string {
  function Rule() {
    return createElement("p", null, checkPageMessages.en.autoApprove(useTimeLimits().claim.autoApproveHours));
  }
  const router = createMemoryRouter([{ id: "root", path: "/", loader: () => null, Component: Rule }], {
    hydrationData: { loaderData: { root: { config } } },
  });
  return renderToString(createElement(RouterProvider, { router }));
}

describe("useTimeLimits: the deploy's time limits on a screen (docs/decisions/055-deploy-time-limits.md)", () => {
  it("are the product's where the configuration has none", () => {
    expect(checkRuleUnder({})).toContain("Submissions not checked within 72 hours are approved automatically.");
  });

  it("are the configuration's where the edge put the deploy's there", () => {
    const timeLimits: TimeLimits = {
      order: { payMinutes: 30 },
      claim: { submitHours: 24, autoApproveHours: 48 },
      session: { idleDays: 30 },
    };
    expect(checkRuleUnder({ timeLimits })).toContain("Submissions not checked within 48 hours are approved automatically.");
  });
});
