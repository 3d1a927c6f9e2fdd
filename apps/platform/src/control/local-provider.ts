import fs from 'node:fs'
import path from 'node:path'
import * as tar from 'tar'
import { COMPUTE_SIZES } from '@stratum/contracts'
import { bootstrapRoles, canConnect } from './bootstrap-roles.js'
import type { InstanceCredentials, InstanceProvider, InstanceSpec } from './instance-provider.js'
import { PostgresServer } from './postgres-server.js'

export interface LocalProviderOptions {
  /** Instances live under <projectsDir>/<ref>. */
  projectsDir: string
  /** listen_addresses of every instance ('localhost' by default; '*' to reach them from other hosts). */
  listenAddresses: string
}

/** Runs each project as a Postgres server process on this machine, on its own port and data directory. */
export class LocalProvider implements InstanceProvider {
  readonly name = 'local'
  private readonly servers = new Map<string, PostgresServer>()

  constructor(private readonly options: LocalProviderOptions) {}

  async provision(spec: InstanceSpec, credentials: InstanceCredentials): Promise<{ serverVersion: string }> {
    const server = this.server(spec)
    await server.init('postgres', credentials.superuserPassword)
    this.applySettings(server, spec)
    await this.startOrExplain(server)
    return { serverVersion: await bootstrapRoles(spec.port, credentials) }
  }

  async ensureRunning(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    if (!server.isInitialized()) throw new Error(`Instance ${spec.ref} has no data directory at ${server.dataDir}`)
    this.applySettings(server, spec)
    await this.startOrExplain(server)
  }

  async stop(spec: InstanceSpec): Promise<void> {
    await this.server(spec).stop()
  }

  isRunning(spec: InstanceSpec): Promise<boolean> {
    return this.server(spec).isRunning()
  }

  async check(spec: InstanceSpec, credentials: InstanceCredentials): Promise<boolean> {
    return canConnect(spec.port, credentials.superuserPassword)
  }

  async snapshot(spec: InstanceSpec, file: string): Promise<void> {
    const server = this.server(spec)
    if (await server.isRunning()) throw new Error('A physical backup needs the instance stopped')
    fs.mkdirSync(path.dirname(file), { recursive: true })
    // Written aside and renamed: a half-written archive never looks like a backup.
    const partial = `${file}.partial`
    await tar.create({ gzip: true, file: partial, cwd: server.dir, portable: true }, ['data'])
    fs.renameSync(partial, file)
  }

  async destroy(spec: InstanceSpec): Promise<void> {
    const server = this.server(spec)
    await server.stop()
    fs.rmSync(server.dir, { recursive: true, force: true })
    this.servers.delete(spec.ref)
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.servers.values()].map((server) => server.stop()))
  }

  instanceDir(ref: string): string {
    return path.join(this.options.projectsDir, ref)
  }

  private server(spec: InstanceSpec): PostgresServer {
    let server = this.servers.get(spec.ref)
    if (!server || server.major !== spec.major) {
      server = new PostgresServer(this.instanceDir(spec.ref), spec.major)
      this.servers.set(spec.ref, server)
    }
    return server
  }

  private applySettings(server: PostgresServer, spec: InstanceSpec): void {
    const size = COMPUTE_SIZES[spec.computeSize]
    server.writeSettings(
      {
        port: spec.port,
        listen_addresses: this.options.listenAddresses,
        unix_socket_directories: '',
        max_connections: size.max_connections,
        shared_buffers: size.shared_buffers,
        work_mem: size.work_mem,
        password_encryption: 'scram-sha-256',
      },
      !['localhost', '127.0.0.1', '::1'].includes(this.options.listenAddresses),
    )
  }

  private async startOrExplain(server: PostgresServer): Promise<void> {
    try {
      await server.start()
    } catch (error) {
      const tail = server.logTail(5)
      throw new Error(`${(error as Error).message}${tail ? `\n${tail}` : ''}`)
    }
  }
}
