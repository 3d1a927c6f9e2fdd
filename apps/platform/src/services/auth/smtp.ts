import { lookup } from 'node:dns/promises'
import { BlockList, isIP } from 'node:net'
import type { ProjectAuthSettings } from '@stratum/contracts'
import nodemailer from 'nodemailer'
import { AuthError } from './errors.js'

/** Addresses a project's SMTP host may not resolve to unless the installation allows it (config smtpAllowPrivateHosts). */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4')
}
PRIVATE.addAddress('::1', 'ipv6')
PRIVATE.addSubnet('fc00::', 7, 'ipv6')
PRIVATE.addSubnet('fe80::', 10, 'ipv6')

const TIMEOUT_MS = 10_000

export interface Email {
  to: string
  subject: string
  html: string
}

/**
 * Sends one email through the project's own SMTP server (its settings, its password), as GoTrue does
 * when SMTP is configured: STARTTLS when the server offers it, implicit TLS on port 465.
 */
export async function sendBySmtp(settings: ProjectAuthSettings, password: string | null, email: Email, allowPrivateHosts: boolean): Promise<void> {
  const host = settings.smtp_host!
  const port = Number(settings.smtp_port ?? 587)
  const address = await resolve(host)
  if (!allowPrivateHosts && PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4')) {
    throw new AuthError(500, 'unexpected_failure', `Error sending email: the SMTP host ${host} is on a private network`)
  }
  const transport = nodemailer.createTransport({
    host: address,
    port,
    secure: port === 465,
    // The certificate names the host, not the address it resolved to.
    tls: { servername: isIP(host) ? undefined : host },
    auth: settings.smtp_user ? { user: settings.smtp_user, pass: password ?? '' } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  })
  try {
    await transport.sendMail({
      from: { name: settings.smtp_sender_name ?? '', address: settings.smtp_admin_email ?? `no-reply@${host}` },
      to: email.to,
      subject: email.subject,
      html: email.html,
    })
  } catch (error) {
    throw new AuthError(500, 'unexpected_failure', `Error sending email: ${(error as Error).message}`)
  } finally {
    transport.close()
  }
}

/** The address the host resolves to now: the one checked is the one connected to. */
async function resolve(host: string): Promise<string> {
  if (isIP(host)) return host
  try {
    return (await lookup(host)).address
  } catch {
    throw new AuthError(500, 'unexpected_failure', `Error sending email: cannot resolve the SMTP host ${host}`)
  }
}
