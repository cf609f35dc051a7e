/** The app's error catalogue in both languages, as the tests read it (the app loads one). */
import enErrors, { partNeedsReload as enPartNeedsReload } from "#app/messages/errors/en";
import zhErrors, { partNeedsReload as zhPartNeedsReload } from "#app/messages/errors/zh-CN";

export const errorMessages = { en: enErrors, "zh-CN": zhErrors } as const;

/** What a form says when its code cannot come until the page is reloaded. */
export const partNeedsReloadMessages = { en: enPartNeedsReload, "zh-CN": zhPartNeedsReload } as const;
