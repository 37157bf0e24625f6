import type { Route } from "./context.js";

/** The route a path matches among `routes`, its parameters, and the handler for `method` if allowed. */
export function matchRoute(method: string, pathname: string, routes: readonly Route[]) {
  const segments = pathname.replace(/\/+$/, "").split("/");
  for (const route of routes) {
    if (route.match) {
      const params = route.match(pathname);
      if (params && route.methods[method]) {
        return {
          route,
          params,
          handler: route.methods[method],
          allowed: Object.keys(route.methods),
        };
      }
      continue;
    }
    const parts = route.pattern.split("/");
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let matched = true;
    for (const [index, part] of parts.entries()) {
      const segment = segments[index] ?? "";
      if (part.startsWith(":") && segment !== "")
        params[part.slice(1)] = decodeURIComponent(segment);
      else if (part !== segment) {
        matched = false;
        break;
      }
    }
    if (matched) {
      return { route, params, handler: route.methods[method], allowed: Object.keys(route.methods) };
    }
  }
  return { route: undefined, params: {}, handler: undefined, allowed: [] as string[] };
}
