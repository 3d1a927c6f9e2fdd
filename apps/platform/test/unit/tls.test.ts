import { X509Certificate, createPrivateKey } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import tls from 'node:tls'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { canonicalNames, ensureCertificateAuthority, ensureInstanceTls, instanceTlsHosts, subjectAltNames } from '../../src/control/tls.js'

let root: string
let tlsDir: string
let dataDir: string

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-tls-'))
  tlsDir = path.join(root, 'tls')
  dataDir = path.join(root, 'projects', 'abc', 'data')
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
})
afterEach(() => fs.rmSync(root, { recursive: true, force: true }))

const mode = (file: string) => fs.statSync(file).mode & 0o777
const read = (file: string) => fs.readFileSync(file, 'utf8')
const names = (file: string) => subjectAltNames(new X509Certificate(read(file))).map((n) => `${n.kind}:${n.value}`)

describe('instance TLS', () => {
  it('makes the installation CA on first need, its key 0600 in a 0700 directory', () => {
    const ca = ensureCertificateAuthority(tlsDir)
    expect(mode(tlsDir)).toBe(0o700)
    expect(mode(path.join(tlsDir, 'ca.key'))).toBe(0o600)
    expect(read(path.join(tlsDir, 'ca.crt'))).toBe(ca.certPem)
    const cert = new X509Certificate(ca.certPem)
    expect(cert.ca).toBe(true)
    expect(cert.subject).toMatch(/CN=Stratum installation CA [0-9a-f]{8}/)
    // The second call reads the same CA back: clients that trust it keep working.
    expect(ensureCertificateAuthority(tlsDir).certPem).toBe(ca.certPem)
  })

  it('writes a server certificate signed by the CA, naming the configured host and loopback', () => {
    const settings = ensureInstanceTls({ tlsDir, instanceDataDir: dataDir, hosts: instanceTlsHosts('db.example.test'), owner: null })
    expect(settings).toEqual({ ssl: 'on', ssl_cert_file: 'server.crt', ssl_key_file: 'server.key' })
    const certFile = path.join(dataDir, 'server.crt')
    expect(mode(path.join(dataDir, 'server.key'))).toBe(0o600)
    expect(names(certFile).sort()).toEqual(['dns:db.example.test', 'dns:localhost', 'ip:127.0.0.1', 'ip:::1'])
    const cert = new X509Certificate(read(certFile))
    const ca = new X509Certificate(read(path.join(tlsDir, 'ca.crt')))
    expect(cert.ca).toBe(false)
    expect(cert.checkIssued(ca)).toBe(true)
    expect(cert.verify(ca.publicKey)).toBe(true)
    expect(cert.checkHost('db.example.test')).toBe('db.example.test')
    expect(cert.checkIP('::1')).toBe('::1')
  })

  it('keeps a certificate that still fits, and replaces it when the host names change', () => {
    const options = { tlsDir, instanceDataDir: dataDir, hosts: instanceTlsHosts('localhost'), owner: null }
    ensureInstanceTls(options)
    const first = read(path.join(dataDir, 'server.crt'))
    ensureInstanceTls(options)
    expect(read(path.join(dataDir, 'server.crt'))).toBe(first)
    // A loose mode (someone's chmod) is put back: Postgres refuses a key others can read.
    fs.chmodSync(path.join(dataDir, 'server.key'), 0o644)
    ensureInstanceTls(options)
    expect(mode(path.join(dataDir, 'server.key'))).toBe(0o600)

    ensureInstanceTls({ ...options, hosts: instanceTlsHosts('10.1.2.3') })
    const second = path.join(dataDir, 'server.crt')
    expect(read(second)).not.toBe(first)
    expect(names(second)).toContain('ip:10.1.2.3')
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.partial'))).toEqual([])
  })

  it('replaces a server key that does not match its certificate', () => {
    const options = { tlsDir, instanceDataDir: dataDir, hosts: ['localhost'], owner: null }
    ensureInstanceTls(options)
    const otherDir = path.join(root, 'other')
    fs.mkdirSync(otherDir)
    ensureInstanceTls({ ...options, instanceDataDir: otherDir })
    fs.copyFileSync(path.join(otherDir, 'server.key'), path.join(dataDir, 'server.key'))
    ensureInstanceTls(options)
    const cert = new X509Certificate(read(path.join(dataDir, 'server.crt')))
    expect(cert.checkPrivateKey(createPrivateKey(read(path.join(dataDir, 'server.key'))))).toBe(true)
  })

  it('refuses a CA key that is not the CA certificate\'s instead of silently making a new CA', () => {
    ensureCertificateAuthority(tlsDir)
    const otherTls = path.join(root, 'other-tls')
    ensureCertificateAuthority(otherTls)
    fs.copyFileSync(path.join(otherTls, 'ca.key'), path.join(tlsDir, 'ca.key'))
    expect(() => ensureCertificateAuthority(tlsDir)).toThrow(/does not belong to/)
  })

  it('spells each name once: IPv6 compressed, host names lower-case, junk left out', () => {
    expect(canonicalNames(['DB.Example.TEST', 'localhost', '[0:0:0:0:0:0:0:1]', '::1', '127.0.0.1', 'not a host', ''])).toEqual([
      { kind: 'dns', value: 'db.example.test' },
      { kind: 'dns', value: 'localhost' },
      { kind: 'ip', value: '::1' },
      { kind: 'ip', value: '127.0.0.1' },
    ])
  })

  it('passes a TLS client that verifies the CA and the host name (what verify-full does)', async () => {
    ensureInstanceTls({ tlsDir, instanceDataDir: dataDir, hosts: instanceTlsHosts('localhost'), owner: null })
    const server = tls.createServer({ cert: read(path.join(dataDir, 'server.crt')), key: read(path.join(dataDir, 'server.key')) }, (socket) => socket.end('ok'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const connect = (servername: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: read(path.join(tlsDir, 'ca.crt')), rejectUnauthorized: true })
        socket.on('error', reject)
        socket.on('data', (data) => resolve(data.toString()))
      })
    try {
      expect(await connect('localhost')).toBe('ok')
      await expect(connect('elsewhere.example.test')).rejects.toThrow(/altnames/i)
    } finally {
      server.close()
    }
  })
})
