/** The app's error catalogue in both languages, as the tests read it (the app loads one). */
import enErrors from "#app/messages/errors/en";
import zhErrors from "#app/messages/errors/zh-CN";

export const errorMessages = { en: enErrors, "zh-CN": zhErrors } as const;
