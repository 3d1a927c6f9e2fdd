import type { Project } from '@stratum/contracts'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { ResetDatabasePassword } from './ResetDatabasePassword'
import { TlsConnection } from './TlsConnection'
import { connectionUri, psqlCommand } from './connection-strings'

export function ConnectionDetails({ project }: { project: Project }) {
  const { db_host: host, db_port: port, db_name: database, db_user: user } = project
  const psql = psqlCommand(project)
  const uri = connectionUri(project)

  return (
    <Card
      title="Connect to your database"
      description="Any Postgres client can connect to this project's own instance with these details."
    >
      <div className="connection-grid">
        <CopyField label="Host" value={host} />
        <CopyField label="Port" value={String(port)} />
        <CopyField label="Database" value={database} />
        <CopyField label="User" value={user} />
      </div>
      <CopyField label="psql command" value={psql} hint="psql asks for the database password when it connects." />
      <CopyField
        label="Connection URI"
        value={uri}
        hint="Replace [YOUR-PASSWORD] with the database password: the one chosen when the project was created, or set by its last reset."
      />
      <TlsConnection project={project} />
      <ResetDatabasePassword project={project} />
    </Card>
  )
}
