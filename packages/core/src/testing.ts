/**
 * `@x/core/testing`: helpers for testing components and serving their simulators, kept out of
 * the runtime's main entry point.
 *
 * @since 0.2.0
 */
/**
 * Serving a simulator on loopback (127.0.0.1, a free port), closing it, and testing that a
 * server stops reading an upload past its cap.
 *
 * @since 0.2.0
 * @category testing
 */
export * as Loopback from "./testing/Loopback.js"

/**
 * A component's test kit: its executor, its steps by action name, its connection opened over
 * an HttpClient as a runner provides it, and `run` for an action's step on it.
 *
 * @since 0.2.0
 * @category testing
 */
export * as ComponentTest from "./testing/ComponentTest.js"

/**
 * An in-memory HttpClient that answers from a handler and records what it was sent, for
 * tests on `TestClock`.
 *
 * @since 0.1.0
 * @category testing
 */
export * as TestHttpClient from "./testing/TestHttpClient.js"

/**
 * Webhook deliveries for simulators: a POST with its signed headers, retried while the
 * provider's policy says so, every attempt reported; `idle` and `close`.
 *
 * @since 0.2.0
 * @category testing
 */
export * as WebhookSender from "./testing/WebhookSender.js"

/**
 * A simulator's router of path templates (`/cards/:id/labels`), literal segments first.
 *
 * @since 0.2.0
 * @category testing
 */
export * as PathRouter from "./testing/PathRouter.js"

/**
 * S3 for simulators: its XML errors and dates, and presigned POST forms signed and checked
 * as S3 checks them.
 *
 * @since 0.2.0
 * @category testing
 */
export * as S3 from "./testing/S3.js"

/**
 * Faults for simulators: requests of a method and path answered with a provider's error status
 * (429, 500, 502, 503, 504) a number of times before they have any effect, each fault's
 * firings counted; and the `POST /1/cards 503 x2` form a command line writes them in.
 *
 * @since 0.2.0
 * @category testing
 */
export * as Faults from "./testing/Faults.js"

/**
 * The count of the definitions' parts built on first use (decoders, encoders, properties'
 * Schemas): a test reads it around an import to see that importing a package builds none.
 *
 * @since 0.10.0
 * @category testing
 */
export * as Laziness from "./testing/Laziness.js"
