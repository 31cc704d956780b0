/**
 * `@x/core`: the Effect runtime every connector component is built on.
 *
 * @since 0.1.0
 */
/**
 * Actions: what a step of a component does.
 *
 * @since 0.1.0
 */
export * as Action from "./Action.js"
/**
 * Bulk operations: one effect per item, concurrent under the limiter, with per-item results.
 *
 * @since 0.2.0
 */
export * as Bulk from "./Bulk.js"
/**
 * One choice of a list, and choices from provider records.
 *
 * @since 0.2.0
 */
export * as Choice from "./Choice.js"
/**
 * Credentials applied to requests, and secrets scrubbed from text.
 *
 * @since 0.1.0
 */
export * as Auth from "./Auth.js"
/**
 * The callback contract of an HttpClient that sends a request and calls back with its response
 * whole: a provider client's usual attempt in one asynchronous step.
 *
 * @since 0.13.0
 */
export * as BufferedSend from "./BufferedSend.js"
/**
 * Typed clients: a component's actions as typed methods, as Effects or Promises.
 *
 * @since 0.2.0
 */
export * as Client from "./Client.js"
/**
 * Components: a name, a version, a connection, actions and triggers; described as JSON.
 *
 * @since 0.1.0
 */
export * as Component from "./Component.js"
/**
 * Connection definitions: custom, API key, OAuth2; every one takes a base URL.
 *
 * @since 0.1.0
 */
export * as Connection from "./Connection.js"
/**
 * Connection tests: the request that proves a connection's credentials work, and its typed failure.
 *
 * @since 0.3.0
 */
export * as ConnectionTest from "./ConnectionTest.js"
/**
 * Opened connections as a service, each opened once per layer.
 *
 * @since 0.2.0
 */
export * as Connections from "./Connections.js"
/**
 * The typed errors of every failure.
 *
 * @since 0.1.0
 */
export * as ConnectorError from "./ConnectorError.js"
/**
 * The generic custom action: any request with the connection's auth.
 *
 * @since 0.1.0
 */
export * as CustomAction from "./CustomAction.js"
/**
 * Choices loaded from the provider, with the parameters they depend on.
 *
 * @since 0.2.0
 */
export * as DynamicOptions from "./DynamicOptions.js"
/**
 * Runs steps, loads dynamic options and drives triggers.
 *
 * @since 0.1.0
 */
export * as Executor from "./Executor.js"
/**
 * File inputs (a path, a URL or base64) and opening them within a size limit.
 *
 * @since 0.2.0
 */
export * as FileInput from "./FileInput.js"
/**
 * Where file inputs, downloads and external URLs may reach: a files directory, private
 * networks refused; the policy in context (everything allowed by default).
 *
 * @since 0.3.0
 */
export * as FilePolicy from "./FilePolicy.js"
/**
 * Streamed downloads to a path and uploads to presigned URLs.
 *
 * @since 0.2.0
 */
export * as Files from "./Files.js"
/**
 * The OAuth2 authorization code flow, tokens and their refresh.
 *
 * @since 0.1.0
 */
export * as OAuth2 from "./OAuth2.js"
/**
 * Walks over the pages of a list endpoint.
 *
 * @since 0.1.0
 */
export * as Pagination from "./Pagination.js"
/**
 * Driving a polling trigger on its interval, from its stored cursor.
 *
 * @since 0.2.0
 */
export * as Polling from "./Polling.js"
/**
 * Input properties: the kinds of parameters, their rules and decoding.
 *
 * @since 0.1.0
 */
export * as Property from "./Property.js"
/**
 * Property groups: inputs whose fields are loaded from the provider (a collection's fields).
 *
 * @since 0.2.0
 */
export * as PropertyGroup from "./PropertyGroup.js"
/**
 * The HTTP client of one connection: auth, limits, time limits, retries, typed errors.
 *
 * @since 0.1.0
 */
export * as ProviderClient from "./ProviderClient.js"
/**
 * A request to a provider, as a component describes it.
 *
 * @since 0.2.0
 */
export * as ProviderRequest from "./ProviderRequest.js"
/**
 * Per-credential rate limits.
 *
 * @since 0.1.0
 */
export * as RateLimiter from "./RateLimiter.js"
/**
 * The components a runner knows, and the resolution of step types.
 *
 * @since 0.1.0
 */
export * as Registry from "./Registry.js"
/**
 * The time-limit contract between the provider client and an HttpClient.
 *
 * @since 0.2.0
 */
export * as RequestDeadline from "./RequestDeadline.js"
/**
 * How a successful response is read.
 *
 * @since 0.2.0
 */
export * as ResponseReader from "./ResponseReader.js"
/**
 * Which failures are retried, and when.
 *
 * @since 0.1.0
 */
export * as RetryPolicy from "./RetryPolicy.js"
/**
 * Workflow steps and the parser of their types.
 *
 * @since 0.1.0
 */
export * as Step from "./Step.js"
/**
 * Triggers: dynamic webhooks, static webhooks, polling and schedules.
 *
 * @since 0.1.0
 */
export * as Trigger from "./Trigger.js"
/**
 * Webhook deliveries: signatures, size limits, URL checks, capped body reads.
 *
 * @since 0.1.0
 */
export * as Webhook from "./Webhook.js"
/**
 * The guard a durable engine puts before each request that creates or changes something.
 *
 * @since 0.2.0
 */
export * as WriteGuard from "./WriteGuard.js"
