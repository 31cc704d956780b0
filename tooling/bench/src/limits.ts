import type { Component, RateLimiter } from "@x/core"

/** The component with its own connection (auth, client, rate-limit keys) and only its rate limits replaced. */
export const withRateLimits = (component: Component.Component, rateLimits: ReadonlyArray<RateLimiter.RateLimit>): Component.Component => ({
  ...component,
  connection: { ...component.connection, rateLimits, rateLimitsOf: undefined }
})
