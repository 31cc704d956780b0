/**
 * `x-runner connect`: the OAuth2 flow of a component, or the test of its connection (`connect/flow.ts`, loaded
 * only when it runs).
 *
 * @since 0.2.0
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Errors from "../../Errors.js"

/**
 * `connect`: the OAuth2 flow of a component, storing the token in the connections file, then
 * testing it; with `test`, the test of the connection as configured, writing nothing.
 *
 * @since 0.2.0
 * @category commands
 */
export const connect = (args: {
  readonly component: string
  readonly connections: Option.Option<string>
  readonly appUrl: string
  readonly test?: boolean
  readonly sandbox?: boolean
  /** A named connection of the component: written under that name (with its `component`), or tested. */
  readonly connection?: Option.Option<string> | undefined
}) =>
  args.sandbox === true && args.test !== true
    ? Effect.fail(new Errors.InvalidArguments({ message: "connect --sandbox tests the simulators' connection: add --test (there is nothing to connect)" }))
    : Effect.flatMap(Effect.promise(() => import("./connect/flow.js")), (Connect) =>
      args.test === true
        ? Connect.test(args.component, { sandbox: args.sandbox === true, file: args.connections }, Option.getOrUndefined(args.connection ?? Option.none()))
        : Connect.connect(
          args.component,
          Option.getOrElse(args.connections, () => "connections.json"),
          args.appUrl,
          Option.getOrUndefined(args.connection ?? Option.none())
        ))
