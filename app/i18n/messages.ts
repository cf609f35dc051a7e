import { useRouteLoaderData } from "react-router";
import { defaultLanguage, isLanguage, type Language } from "./languages";

/** One screen's strings in every language; the compiler holds the languages to the same keys. */
export type Catalogue<T> = Record<Language, T>;

export function defineMessages<T>(messages: { en: T; "zh-CN": NoInfer<T> }): Catalogue<T> {
  return messages;
}

type RootData = { language?: Language } | undefined;

/** The page's language: the edge chose it and rendered the document in it. */
export function useLanguage(): Language {
  const root = useRouteLoaderData("root") as RootData;
  return root?.language ?? currentLanguage();
}

export function useMessages<T>(catalogue: Catalogue<T>): T {
  return catalogue[useLanguage()];
}

/** For code outside React (client actions): the language the document was rendered in. */
export function currentLanguage(): Language {
  if (typeof document === "undefined") return defaultLanguage;
  const lang = document.documentElement.lang;
  return isLanguage(lang) ? lang : defaultLanguage;
}

type MetaMatch = { id: string; loaderData?: unknown; data?: unknown } | undefined;

/** The language inside `meta()`, which runs outside React: from the root route's data. */
export function metaLanguage(matches: readonly MetaMatch[]): Language {
  const root = matches.find((match) => match?.id === "root");
  const data = (root?.loaderData ?? root?.data) as RootData;
  return data?.language ?? defaultLanguage;
}
