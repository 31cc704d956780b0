/**
 * `@x/core/testing`: helpers for testing components and serving their simulators, kept out of
 * the runtime's main entry point.
 *
 * @since 0.2.0
 */
export * as Loopback from "./testing/Loopback.js"
export * as TestHttpClient from "./testing/TestHttpClient.js"
