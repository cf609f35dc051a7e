import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { reportError } from "./startup/error-reporting";
import { runStartup } from "./startup/run-startup";

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
