/**
 * A page twin (docs/decisions/038-the-anchor-renders-paydesks-page.md): a page Paydesk's edge
 * rendered, captured by bench/build-anchors.ts as plain elements and React Router links,
 * with the loader data it was rendered from, so that the anchor (bench/anchor, whose `/twin`
 * route renders it with this module) serves the same document with none of Paydesk's code.
 */
import { type ComponentType, createElement, type ReactNode } from "react";

/** Text, or an element: a tag (or `Link`/`NavLink`, React Router's), its React props, its children. */
export type TwinNode = string | TwinElement;
export type TwinElement = [tag: string, props: TwinProps, ...children: TwinNode[]];
export type TwinProps = Record<string, string | true | Record<string, string>>;

export type TwinPage = {
  /** The path the page was captured from, and its size in bytes there. */
  source: string;
  bytes: number;
  /** The headers Paydesk's edge answered it with, which the twin answers with too (bench/page-headers.ts). */
  headers: [string, string][];
  /** What Paydesk's <head> carries of its own (title, description, styles, inline scripts). */
  head: TwinNode[];
  /** The <body>'s elements, without the framework's scripts. */
  body: TwinNode[];
  /** Each matched route's loader data, as the page was rendered from it. */
  loaderData: Record<string, unknown>;
};

/** React Router's links, to render the captured ones with; they take the captured props as they are. */
export type TwinLinks = Record<"Link" | "NavLink", ComponentType<{ to: string } & Record<string, unknown>>>;

/**
 * Captured nodes as React elements (bench/page-twin.ts writes their props ready for React).
 * Without `links`, a captured link is the plain `<a>` it wrote: a NavLink's class is then
 * "", as React Router writes it on a page none of them points to, such as `/twin`.
 */
export function twinElements(nodes: TwinNode[], links?: TwinLinks): ReactNode[] {
  const element = (node: TwinNode, key: number): ReactNode => {
    if (typeof node === "string") return node;
    const [tag, props, ...children] = node;
    // A style sheet's or an inline script's text is written as it is, never escaped.
    if ((tag === "style" || tag === "script") && children.every((child) => typeof child === "string")) {
      return createElement(tag, { ...props, key, dangerouslySetInnerHTML: { __html: children.join("") } });
    }
    const rendered = children.map(element);
    if (tag !== "Link" && tag !== "NavLink") return createElement(tag, { ...props, key }, ...rendered);
    if (links) return createElement(links[tag], { ...props, to: String(props.to), key }, ...rendered);
    const { to, end: _end, ...rest } = props;
    return createElement("a", { ...(tag === "NavLink" ? { className: "" } : {}), ...rest, href: String(to), key }, ...rendered);
  };
  return nodes.map(element);
}
