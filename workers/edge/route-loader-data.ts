import { captureException } from "./error-reporting";
import { matchRoutes, type RouteObject, type RouterContextProvider, type ServerBuild } from "react-router";
import { errorAnswer } from "./api-answer";

export const routeLoaderDataPath = "/__serverLoader";

type BuildRoute = NonNullable<ServerBuild["routes"][string]>;

function routeTree(routes: ServerBuild["routes"], parentId: string | undefined): RouteObject[] {
  return Object.values(routes)
    .filter((route): route is BuildRoute => route !== undefined && route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      ...(route.index ? { index: true as const } : { children: routeTree(routes, route.id) }),
    }));
}

/** React Router's `data(value, init)` result, which is a class instance it does not export a guard for. */
function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}

/**
 * `GET /__serverLoader?route=<routeId>&url=<page URL>`: the original app's contract
 * for one route's server loader data, answered as plain JSON.
 */
export async function serveRouteLoaderData(request: Request, build: ServerBuild, context: RouterContextProvider): Promise<Response> {
  const requestUrl = new URL(request.url);
  const routeId = requestUrl.searchParams.get("route");
  const pageParam = requestUrl.searchParams.get("url");
  if (!routeId) return errorAnswer("BAD_REQUEST", "The query parameter route (a route id) is required.");
  if (!pageParam) return errorAnswer("BAD_REQUEST", "The query parameter url (the page URL) is required.");

  let pageUrl: URL;
  try {
    pageUrl = new URL(pageParam, requestUrl.origin);
  } catch {
    return errorAnswer("BAD_REQUEST", "The query parameter url is not a URL.");
  }
  if (pageUrl.origin !== requestUrl.origin) {
    return errorAnswer("BAD_REQUEST", "The query parameter url must be a page of this site.");
  }

  const route = Object.hasOwn(build.routes, routeId) ? build.routes[routeId] : undefined;
  if (!route) return errorAnswer("NOT_FOUND", `There is no route with the id "${routeId}".`);
  const loader = route.module.loader;
  if (!loader) return errorAnswer("NOT_FOUND", `The route "${routeId}" has no server loader.`);

  const match = matchRoutes(routeTree(build.routes, undefined), pageUrl.pathname)?.find((candidate) => candidate.route.id === routeId);
  if (!match) return errorAnswer("BAD_REQUEST", `The url ${pageUrl.pathname} is not a page of the route "${routeId}".`);

  let result: unknown;
  try {
    result = await loader({
      request: new Request(pageUrl, { headers: request.headers, signal: request.signal }),
      url: pageUrl,
      params: match.params,
      context,
      pattern: match.route.path ?? "",
    } as Parameters<typeof loader>[0]);
  } catch (error) {
    if (error instanceof Response) return error;
    captureException(error, { tags: { routeId } });
    return errorAnswer("INTERNAL_ERROR", "Something went wrong on our side. Please try again.");
  }

  if (result instanceof Response) return result;
  if (isDataWithInit(result)) {
    const init = result.init ?? {};
    return Response.json(result.data, { status: init.status ?? 200, headers: init.headers });
  }
  return Response.json(result ?? null);
}
