/**
 * A simulator's router: routes of a method and a path template (`/cards/:id/labels`), the
 * template's parameters decoded from the path, literal segments winning over parameters
 * (`/boards/:id/lists` over `/boards/:id/:field`). What a route's handler takes besides its
 * path parameters (a query, a body, a file) is the simulator's own.
 *
 * @since 0.2.0
 */

/**
 * A route: a method, a path template, and its handler, which gets the path's parameters by
 * name and what the simulator passes along.
 *
 * @since 0.2.0
 * @category models
 */
export interface Route<In, Out = unknown> {
  readonly method: string
  readonly path: string
  readonly handle: (path: Readonly<Record<string, string>>, request: In) => Out
}

/**
 * A path segment decoded (`%20` → space), or left as it is when it is not valid percent-encoding.
 *
 * @since 0.2.0
 * @category utils
 */
export const safeDecode = (segment: string): string => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

const literals = (path: string) => path.split("/").filter((s) => s !== "" && !s.startsWith(":")).length

const compile = <In, Out>(route: Route<In, Out>) => {
  const names: Array<string> = []
  const source = route.path.replace(/\/$/, "").split("/").map((segment) => {
    if (!segment.startsWith(":")) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    names.push(segment.slice(1))
    return "([^/]+)"
  }).join("/")
  return { route, names, pattern: new RegExp(`^${source}/?$`) }
}

/**
 * A router of these routes: the handler's answer for a method and path, or `notFound`'s when no
 * route matches.
 *
 * @since 0.2.0
 * @category constructors
 */
export const make = <In, Out>(
  routes: ReadonlyArray<Route<In, Out>>,
  notFound: (method: string, path: string) => Out
): (method: string, path: string, request: In) => Out => {
  const compiled = routes.map(compile).sort((a, b) => literals(b.route.path) - literals(a.route.path))
  return (method, path, request) => {
    for (const { names, pattern, route } of compiled) {
      if (route.method !== method) continue
      const match = pattern.exec(path)
      if (match === null) continue
      const values: Record<string, string> = {}
      names.forEach((name, i) => values[name] = safeDecode(match[i + 1]!))
      return route.handle(values, request)
    }
    return notFound(method, path)
  }
}
