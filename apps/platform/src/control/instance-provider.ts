import type { ComputeSize, PostgresConfig, PostgresMajor } from '@stratum/contracts'

/** What a provider needs to know to run one project's Postgres. */
export interface InstanceSpec {
  ref: string
  /**
   * Which of the project's instances: the live one (default), or the one a major-version upgrade
   * builds beside it ('next') before the switch-over.
   */
  slot?: 'live' | 'next'
  major: PostgresMajor
  port: number
  computeSize: ComputeSize
  /** The owners' server settings, network allow-list and TLS rule; left out: the compute size's defaults, open to every network. */
  database?: InstanceDatabaseSettings
  /** The PITR add-on: the instance archives every WAL segment (control/pitr/). Takes effect at the next start. */
  walArchive?: boolean
}

/** Who may connect to an instance as its users, and how (the project's network restrictions and SSL enforcement; hba.ts). */
export interface DatabaseAccess {
  /** IPv4 and IPv6 networks allowed to connect as the project's users; 0.0.0.0/0 and ::/0 allow everyone. */
  allowedCidrs: string[]
  allowedCidrsV6: string[]
  /** Users' connections must use TLS. */
  sslEnforced: boolean
}

export interface InstanceDatabaseSettings {
  /** Postgres settings over the compute size's (the Management API's config/database/postgres). */
  config: Partial<PostgresConfig>
  access: DatabaseAccess
  /** The project still uses `postgres` as the platform's superuser (old role model): it stays allowed from this machine. */
  legacySuperuserLogin: boolean
}

/** Where a point-in-time recovery starts: a base backup, the WAL archive and the moment to stop at. */
export interface ArchiveSource {
  baseBackupDir: string
  walDir: string
  /** The WAL file the base backup starts in: older archived segments are not needed. */
  startWalFile: string
  target: Date
}

/** Passwords of the roles every instance is bootstrapped with (bootstrap-roles.ts). */
export interface InstanceCredentials {
  /** The platform's own superuser (supabase_admin): never shown to anyone. */
  adminPassword: string
  /**
   * The password the user chose for `postgres` at creation; null once the project is provisioned
   * (it is never given back, only reset).
   */
  initialUserPassword: string | null
  /** The SQL editor's full connection (acts as `postgres`). */
  editorPassword: string
  /** The SQL editor's read-only role. */
  readonlyPassword: string
  /** The role the REST layer logs in as. */
  authenticatorPassword: string
}

/**
 * Runs project instances. The local provider runs Postgres processes on this machine; a
 * Kubernetes provider (CloudNativePG) is the planned scale-out. Every method is idempotent:
 * callers retry after a crash by calling the same method again.
 */
export interface InstanceProvider {
  readonly name: string
  /** Creates the instance when missing, applies its settings, starts it and bootstraps its roles. */
  provision(spec: InstanceSpec, credentials: InstanceCredentials): Promise<{ serverVersion: string }>
  /** Starts an existing instance (after a platform restart); a running one is adopted. */
  ensureRunning(spec: InstanceSpec): Promise<void>
  stop(spec: InstanceSpec): Promise<void>
  isRunning(spec: InstanceSpec): Promise<boolean>
  /** Accepts a connection as the platform's superuser. */
  check(spec: InstanceSpec, credentials: InstanceCredentials): Promise<boolean>
  /** Writes a physical backup (a copy of the stopped instance's data directory) to a .tar.gz file. */
  snapshot(spec: InstanceSpec, file: string): Promise<void>
  /** Stops the instance and deletes its data for good (project deletion). */
  destroy(spec: InstanceSpec): Promise<void>
  /**
   * Upgrade switch-over: the 'next' instance becomes the live one; the old live data is kept
   * aside (as 'previous') until discardPrevious. Idempotent: a repeated call finds it done.
   */
  promoteNext(ref: string): Promise<void>
  /** Undoes promoteNext when the previous data is still there. */
  demoteToPrevious(ref: string): Promise<void>
  discardPrevious(ref: string): Promise<void>
  discardNext(ref: string): Promise<void>
  /** The major version whose data sits in the live slot, read from disk (PG_VERSION). */
  liveMajor(ref: string): string | null
  /**
   * Writes the spec's settings and access rules to a running (or stopped) instance and reloads it:
   * what can change without a restart applies at once, the rest at the next start.
   */
  reconfigure(spec: InstanceSpec): Promise<void>
  /**
   * Branching: copies the running `source` instance physically and online (it keeps serving) as the
   * data of `target`, which has none yet; the copy is consistent once `target` starts. A half-made copy
   * from an interrupted call is thrown away and made again. 'reflink': the filesystem shared the blocks.
   */
  cloneRunning(source: InstanceSpec, sourceAdminPassword: string, target: InstanceSpec): Promise<{ method: 'reflink' | 'copy' }>
  /** Stops the instance and deletes its data, keeping everything else (a branch reset copies it again). */
  discardData(spec: InstanceSpec): Promise<void>
  /**
   * PITR: a consistent online copy of the running instance into `dir` (a base backup of its WAL archive),
   * with the timeline and WAL file it starts from.
   */
  baseBackup(spec: InstanceSpec, adminPassword: string, dir: string): Promise<{ timeline: number; startWalFile: string }>
  /**
   * PITR: makes the instance's data (it has none) from a base backup and the WAL archive, recovering to
   * `target` at its next start, after which it opens on a new timeline.
   */
  buildFromArchive(spec: InstanceSpec, source: ArchiveSource): Promise<void>
  /** Removes what a finished recovery no longer needs (the staged WAL segments). */
  clearRecoveryFiles(spec: InstanceSpec): Promise<void>
  /** A restore in place: the stopped instance's data set aside, brought back (failure), or dropped (success). */
  setAsideData(spec: InstanceSpec): Promise<void>
  bringBackSetAside(spec: InstanceSpec): Promise<boolean>
  dropSetAside(spec: InstanceSpec): Promise<void>
  /** Stops every instance this provider started or adopted: platform shutdown. */
  stopAll(): Promise<void>
}
