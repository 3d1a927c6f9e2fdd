import type pg from 'pg'

/** A pool or a client: introspection runs its reads on either. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient | pg.Client
