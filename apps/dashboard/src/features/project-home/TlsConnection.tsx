import { SSL_CA_FILE_NAME, sslCaPath, type Project } from '@stratum/contracts'
import { Download } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { CopyField } from '../../components/ui/CopyField'
import { startDownload } from '../../lib/download'

/** Quotes a libpq keyword value when it needs it (spaces, quotes, backslashes). */
function connValue(value: string): string {
  return /^[^\s'\\]+$/.test(value) ? value : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
}

/**
 * TLS: every instance takes encrypted connections (sslmode=require). With the installation's CA
 * certificate a client also checks it talks to this server under this host name (verify-full).
 */
export function TlsConnection({ project }: { project: Project }) {
  const { db_host: host, db_port: port, db_name: database, db_user: user } = project
  const psql =
    `psql "host=${connValue(host)} port=${port} user=${connValue(user)} dbname=${connValue(database)} ` +
    `sslmode=verify-full sslrootcert=${SSL_CA_FILE_NAME}"`

  return (
    <div className="tls-connection">
      <div className="password-reset-row">
        <div className="password-reset-text">
          <h3>SSL certificate</h3>
          <p className="muted">
            Connections can be encrypted (<code>sslmode=require</code>). To also verify the server, download the CA
            certificate of this Stratum installation and give it to your client with <code>sslmode=verify-full</code>.
          </p>
        </div>
        {/* Same-origin: the session cookie goes along; the server names the file (Content-Disposition). */}
        <Button icon={<Download size={14} aria-hidden="true" />} onClick={() => startDownload(sslCaPath(project.ref))}>
          Download certificate
        </Button>
      </div>
      <CopyField
        label="psql command with certificate verification"
        value={psql}
        hint={`Run it where you saved ${SSL_CA_FILE_NAME}.`}
      />
    </div>
  )
}
