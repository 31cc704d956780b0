/** A connection as plain JSON data. */
import type * as ConnectionTest from "../ConnectionTest.js"
import type * as OAuth2 from "../OAuth2.js"
import * as Property from "../Property.js"
import type * as RateLimiter from "../RateLimiter.js"
import { durationMillis, type Kind } from "./connection.js"

/** What a description needs of a connection. */
interface Describable {
  readonly kind: Kind
  readonly version: number
  readonly title: string
  readonly description?: string | undefined
  readonly props: Property.Properties
  readonly client: { readonly defaultBaseUrl: string }
  readonly rateLimits: ReadonlyArray<RateLimiter.RateLimit>
  readonly oauth2?: OAuth2.Settings | undefined
  readonly test?: ConnectionTest.ConnectionTest | undefined
}

export interface ConnectionDescription {
  readonly kind: Kind
  readonly version: number
  readonly title: string
  readonly description?: string
  readonly props: Record<string, Property.PropertyDescription>
  readonly defaultBaseUrl: string
  readonly rateLimits: ReadonlyArray<{ readonly scope: string; readonly limit: number; readonly intervalMillis: number }>
  readonly oauth2?: { readonly authorizeUrl: string; readonly tokenUrl: string; readonly scopes: ReadonlyArray<string> }
  /** The request its connection test sends, e.g. `GET /members/me`. */
  readonly test?: string
}

export const describe = (connection: Describable): ConnectionDescription => ({
  kind: connection.kind,
  version: connection.version,
  title: connection.title,
  ...(connection.description !== undefined ? { description: connection.description } : {}),
  props: Property.describeAll(connection.props),
  defaultBaseUrl: connection.client.defaultBaseUrl,
  rateLimits: connection.rateLimits.map((limit) => ({
    scope: limit.scope,
    limit: limit.limit,
    intervalMillis: durationMillis(limit.interval)
  })),
  ...(connection.oauth2 !== undefined
    ? {
      oauth2: {
        authorizeUrl: connection.oauth2.authorizeUrl,
        tokenUrl: connection.oauth2.tokenUrl,
        scopes: connection.oauth2.scopes
      }
    }
    : {}),
  ...(connection.test !== undefined ? { test: `${connection.test.request.method} ${connection.test.request.path}` } : {})
})
