import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { ProjectAuthSettings } from '@stratum/contracts'
import nodemailer from 'nodemailer'
import { isPrivateAddress } from '../../private-networks.js'
import { AuthError } from './errors.js'

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
  // Loopback, private networks and their IPv6 forms (private-networks.ts) unless the installation allows them (config smtpAllowPrivateHosts).
  if (!allowPrivateHosts && isPrivateAddress(address)) {
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
