import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { currentLanguage } from "./i18n/messages";
import { type LayoutMessages, layoutMessagesElementId, provideLayoutMessages } from "./i18n/layout-messages";
import { readJsonBlock } from "./startup/json-block";
import { reportError } from "./startup/error-reporting";
import { runStartup } from "./startup/run-startup";

// The layout's words come with the page, in <head> (app/i18n/layout-messages.ts). A page
// without them was cut short: the app does not start on it, and the asset watch reloads
// it once, then explains (app/startup/asset-watch.server.ts).
const layoutMessages = readJsonBlock(document, layoutMessagesElementId) as LayoutMessages | null;
if (layoutMessages) {
  provideLayoutMessages({ [currentLanguage()]: layoutMessages });
  start();
}

function start() {
  void runStartup(() => {
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
        {
          onUncaughtError: (error) => reportError(error, { phase: "render" }),
          onRecoverableError: (error) => {
            // A hydration mismatch: visible in the console too, so tests fail on it.
            console.error("Recoverable render error:", error);
            reportError(error, { phase: "hydration" });
          },
        },
      );
    });
  });
}
