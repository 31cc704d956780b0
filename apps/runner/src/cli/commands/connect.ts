/**
 * `x-runner connect`: its arguments, options and help; the OAuth2 flow or the connection's test
 * (`../handlers/connect.ts`) is loaded when the command runs.
 *
 * @since 0.2.0
 */
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Layers from "../internal/layers.js"

/**
 * Its examples, in its help and the root's.
 *
 * @since 0.2.0
 * @category constants
 */
export const examples = [
  "$ x-runner connect sitebuilder --connections connections.json --app-url http://127.0.0.1:3000",
  "$ x-runner connect boardtool --test --connections connections.json",
  "$ x-runner connect sitebuilder --connection staging --connections connections.json"
] as const

/**
 * The `connect` command: its arguments and options, parsed, then its handler (`../handlers/connect.ts`, loaded when it runs).
 *
 * @since 0.2.0
 * @category commands
 */
export const command = Command.make("connect", {
  component: Args.text({ name: "component" }).pipe(
    Args.withDescription("The component to connect with OAuth2 (e.g. sitebuilder), or whose connection to test with --test (any)")
  ),
  connections: Options.file("connections").pipe(
    Options.withDescription(
      "The connections file holding the app's clientId and clientSecret; the token is written into it (0600). With --test, the values tested; XRUNNER_<COMPONENT>_<FIELD> variables add to it (default: connections.json)"
    ),
    Options.optional
  ),
  test: Options.boolean("test").pipe(
    Options.withDescription(
      "Test the connection as configured, writing nothing: send the component's one cheap authenticated request and say whose the credentials are, or why they were refused and what to do (exit 2; 1 when the provider could not be reached)"
    )
  ),
  sandbox: Options.boolean("sandbox").pipe(Options.withDescription("With --test: test the embedded simulators' connection")),
  connection: Options.text("connection").pipe(
    Options.withPseudoName("NAME"),
    Options.withDescription(
      "A named connection of the component (several accounts of one provider): the token is written under NAME, with \"component\", and steps pick it with \"connection\": \"NAME\"; with --test, that connection is tested"
    ),
    Options.optional
  ),
  appUrl: Options.text("app-url").pipe(
    Options.withPseudoName("URL"),
    Options.withDescription("Where this process serves {app-url}/callback: the app's redirect URI"),
    Options.withDefault("http://127.0.0.1:3000")
  )
}, (args) =>
  Effect.flatMap(Effect.promise(() => import("../handlers/connect.js")), (Handler) => Handler.connect(args)).pipe(
    Effect.provide(Layer.merge(Layers.components(), Layers.http))
  )).pipe(
  Command.withDescription(
    "Connect an OAuth2 component: authorize in the browser, store the token in the connections file, and test it; or, with --test, test any component's connection as configured"
  )
)
