/**
 * A rendered Paydesk page as a page twin (bench/page-twin-elements.ts): its elements
 * as React props and React Router links, for the anchor to render the same document
 * (docs/decisions/038-the-anchor-renders-paydesks-page.md).
 *
 * What is left out is the framework's own: the body's scripts but data blocks (React Router's
 * context, manifest and data, and its scroll restoration), the head's links (module preloads, the icon) and the charset and
 * viewport tags, which the anchor's root renders itself.
 */
import { Parser } from "htmlparser2";
import type { TwinElement, TwinNode, TwinProps } from "./page-twin-elements.ts";

// The attributes React writes under another name than its prop's.
const propNames: Record<string, string> = { class: "className", for: "htmlFor" };
// React writes `true` as `name=""` and leaves out `""`: an empty value is `true` for these.
const booleanAttributes = new Set([
  "async",
  "checked",
  "disabled",
  "hidden",
  "multiple",
  "novalidate",
  "open",
  "readonly",
  "required",
  "selected",
]);

/** A style attribute as React's style prop: camel-cased properties, custom properties as they are. */
function styleObject(css: string): Record<string, string> {
  const style: Record<string, string> = {};
  for (const declaration of css.split(";")) {
    const colon = declaration.indexOf(":");
    const name = declaration.slice(0, colon).trim();
    const value = declaration.slice(colon + 1).trim();
    if (colon < 0 || !name || !value) continue;
    style[name.startsWith("--") ? name : name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())] = value;
  }
  return style;
}

function twinProps(attributes: Record<string, string>): TwinProps {
  const props: TwinProps = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "style") props.style = styleObject(value);
    else props[propNames[name] ?? name] = value === "" && booleanAttributes.has(name.toLowerCase()) ? true : value;
  }
  return props;
}

/**
 * React Router's links by what they write: every internal link carries `data-discover`; a
 * NavLink always writes a class, "" or "active" when it is given none. A link to `/` is taken
 * with `end`, as a navigation's home link is, so that it is not active on every page.
 */
function linkElement(attributes: Record<string, string>): TwinElement | null {
  const { "data-discover": discover, href, ...rest } = attributes;
  if (discover === undefined || href === undefined) return null;
  const { class: className, "aria-current": _current, ...others } = rest;
  if (className === "" || className === "active")
    return ["NavLink", { ...twinProps(others), to: href, ...(href === "/" ? { end: true } : {}) }];
  return ["Link", { ...twinProps(rest), to: href }];
}

/** What the head carries of the page's own: its title, description, styles and inline scripts. */
function keptInHead(tag: string, attributes: Record<string, string>): boolean {
  if (tag === "title" || tag === "style") return true;
  if (tag === "meta") return attributes.name === "description";
  return tag === "script" && attributes.type !== "module";
}

/** The page's own head and body elements, in document order. */
export function twinNodes(html: string): { head: TwinNode[]; body: TwinNode[] } {
  const head: TwinNode[] = [];
  const body: TwinNode[] = [];
  let section: TwinNode[] | null = null;
  // The open elements being filled; `null` for one left out with everything inside it.
  const open: (TwinElement | null)[] = [];
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        if (tag === "html") return;
        if (tag === "head" || tag === "body") {
          section = tag === "head" ? head : body;
          return;
        }
        const parent = open.at(-1);
        const skipped =
          parent === null ||
          section === null ||
          (section === head && open.length === 0 && !keptInHead(tag, attributes)) ||
          (section === body && tag === "script" && attributes.type !== "application/json");
        const element = skipped ? null : (linkElement(attributes) ?? [tag, twinProps(attributes)]);
        if (element) (parent ?? section)?.push(element);
        open.push(element);
      },
      ontext(text) {
        const element = open.at(-1);
        if (!element) return;
        // The parser may hand one text over in pieces; React would write pieces apart.
        const last = element.length > 2 ? element.at(-1) : undefined;
        if (typeof last === "string") element[element.length - 1] = last + text;
        else element.push(text);
      },
      onclosetag(tag) {
        if (tag === "html" || tag === "head" || tag === "body") section = null;
        else open.pop();
      },
    },
    { lowerCaseAttributeNames: false, recognizeSelfClosing: true },
  );
  parser.end(html);
  return { head, body };
}
