/**
 * OpenTelemetry traces of `serve`: when an OTLP endpoint is configured (`--otlp-endpoint`, or
 * the standard `OTEL_EXPORTER_OTLP_ENDPOINT`), each run is a span (`x-runner.run`, with its id,
 * workflow and trigger event) and each step executed a span within it (`x-runner.step`, with
 * its name, type and status), exported over OTLP/HTTP as JSON every second
 * (`@effect/opentelemetry`'s exporter: no OpenTelemetry SDK to install). Nothing secret is an
 * attribute: ids, names and statuses only.
 *
 * @since 0.3.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import * as Layer from "effect/Layer"

/**
 * The endpoint configured: the option's, else the environment's; `undefined` for none.
 *
 * @since 0.3.0
 * @category constructors
 */
export const endpointOf = (option: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined => {
  const given = option ?? env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? env["OTEL_EXPORTER_OTLP_ENDPOINT"]
  return given === undefined || given === "" ? undefined : given
}

/**
 * The traces' URL: a base endpoint gets OTLP's `/v1/traces` path, as the OpenTelemetry SDKs do;
 * one that already names it is kept.
 *
 * @since 0.3.0
 * @category constructors
 */
export const tracesUrl = (endpoint: string): string => /\/v1\/traces\/?$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, "")}/v1/traces`

/**
 * The tracer exporting to the endpoint (tracing turned on), or, without one, tracing turned
 * off: spans that would go nowhere are not made (every run, step, request and query makes some).
 *
 * @since 0.3.0
 * @category layers
 */
export const layer = (endpoint: string | undefined, version: string): Layer.Layer<never, never, HttpClient.HttpClient> =>
  endpoint === undefined ? Layer.setTracerEnabled(false) : Layer.mergeAll(
    OtlpTracer.layer({
      url: tracesUrl(endpoint),
      resource: { serviceName: "x-runner", serviceVersion: version },
      exportInterval: "1 second",
      shutdownTimeout: "3 seconds"
    }).pipe(Layer.provide(OtlpSerialization.layerJson)),
    Layer.setTracerEnabled(true)
  )
