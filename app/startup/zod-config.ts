/**
 * Zod compiles a fast parser for each object schema with `new Function`, probing first
 * whether it may. Paydesk's CSP has no 'unsafe-eval', so the probe fails and the browser
 * reports a CSP violation on every form page; parsing without it is fast enough for forms.
 * Imported first by the browser's entry: the setting is read when each schema is built.
 */
import { z } from "zod";

z.config({ jitless: true });
