/** A PostgreSQL of a test's own (see postgres.mjs). */
export interface Postgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  readonly url: string
  readonly port: number
  /** Stops it (its sessions ended) and starts it again on the same data and port. */
  readonly restart: () => Promise<void>
  readonly stop: () => Promise<void>
}

/** Starts one (a few seconds); several may run at once. */
export declare const startPostgres: (database?: string) => Promise<Postgres>
