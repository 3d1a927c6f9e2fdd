import {
  REALTIME_CONFIG_BOUNDS,
  RealtimeConfigUpdateBody,
  type RealtimeConfigResponse,
  type RealtimeNumericSetting,
} from "@stratum/contracts";
import { useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Alert } from "../../components/ui/Alert";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { Checkbox } from "../../components/ui/Checkbox";
import { TextField } from "../../components/ui/Field";
import { PageHeader } from "../../components/ui/PageHeader";
import { useToast } from "../../components/ui/Toast";
import { errorMessage } from "../../data/api";
import { useCan } from "../../data/profile/useCan";
import { useCurrentProject } from "../../data/projects/useCurrentProject";
import {
  useRealtimeConfig,
  useShutdownRealtime,
  useUpdateRealtimeConfig,
} from "../../data/realtime-config/useRealtimeConfig";
import type { RealtimeTable } from "../../data/table-editor/types";
import { useRealtimeTables } from "../../data/table-editor/useCatalog";
import { useProjectPageTitle } from "../../lib/useProjectPageTitle";
import { RealtimeTabs } from "./RealtimeTabs";
import "./realtime.css";

const PERMISSION_TEXT =
  "You need additional permissions to change the Realtime settings";

/** The limits as the page shows them, in Supabase Studio's words. */
const LIMIT_FIELDS: Array<{
  name: RealtimeNumericSetting;
  label: string;
  hint: string;
}> = [
  {
    name: "connection_pool",
    label: "Database connection pool size",
    hint: "Connections Realtime keeps to the database to authorise channels and check changes",
  },
  {
    name: "max_concurrent_users",
    label: "Max concurrent clients",
    hint: "Sockets connected at once; more are refused",
  },
  {
    name: "max_events_per_second",
    label: "Max events per second",
    hint: "Messages clients send per second, across the project",
  },
  {
    name: "max_bytes_per_second",
    label: "Max bytes per second",
    hint: "Bytes of broadcast payloads clients send per second",
  },
  {
    name: "max_presence_events_per_second",
    label: "Max presence events per second",
    hint: "Presence track and untrack calls per second",
  },
  {
    name: "max_joins_per_second",
    label: "Max joins per second",
    hint: "Channel joins per second",
  },
  {
    name: "max_channels_per_client",
    label: "Max channels per client",
    hint: "Channels one socket may join",
  },
  {
    name: "max_payload_size_in_kb",
    label: "Max payload size in KB",
    hint: "The largest message a client may send",
  },
];

type Draft = Record<RealtimeNumericSetting, string> & { private_only: boolean };

const draftOf = (config: RealtimeConfigResponse): Draft => ({
  ...(Object.fromEntries(
    LIMIT_FIELDS.map(({ name }) => [name, String(config[name])]),
  ) as Record<RealtimeNumericSetting, string>),
  private_only: config.private_only,
});

/** /project/{ref}/realtime/settings: channel restrictions and the project's Realtime limits. */
export function RealtimeSettingsPage() {
  useProjectPageTitle("Realtime Settings");
  const { ref, project } = useCurrentProject();
  const canUpdate = useCan(project?.organization_slug, "projects.update");
  const config = useRealtimeConfig(ref);
  return (
    <div className="page page-narrow">
      <PageHeader
        title="Realtime Settings"
        description="Who may join the project's channels and how much traffic one project may send. Saving reconnects the connected clients under the new settings."
      >
        <RealtimeTabs projectRef={ref} />
      </PageHeader>
      {config.isError ? (
        <Alert tone="danger" title="Failed to load the Realtime settings">
          {errorMessage(config.error)}
        </Alert>
      ) : !config.data ? (
        <Card title="Settings" description="Loading…" />
      ) : (
        // Keyed by the stored values: a save (or another member's) starts the form over from them.
        <RealtimeSettingsForm
          key={JSON.stringify(config.data)}
          projectRef={ref}
          stored={config.data}
          canUpdate={canUpdate}
        />
      )}
      <RealtimeTablesCard projectRef={ref} />
      <ShutdownCard
        projectRef={ref}
        canUpdate={canUpdate}
        suspended={config.data?.suspend ?? false}
      />
    </div>
  );
}

function RealtimeSettingsForm({
  projectRef,
  stored,
  canUpdate,
}: {
  projectRef: string;
  stored: RealtimeConfigResponse;
  canUpdate: boolean;
}) {
  const toast = useToast();
  const update = useUpdateRealtimeConfig();
  const [draft, setDraft] = useState<Draft>(() => draftOf(stored));
  const [problem, setProblem] = useState<string | null>(null);
  const changed = JSON.stringify(draft) !== JSON.stringify(draftOf(stored));

  const save = (event: FormEvent) => {
    event.preventDefault();
    const numbers = Object.fromEntries(
      LIMIT_FIELDS.map(({ name }) => [
        name,
        draft[name].trim() === "" ? Number.NaN : Number(draft[name]),
      ]),
    );
    const change = RealtimeConfigUpdateBody.safeParse({
      ...numbers,
      private_only: draft.private_only,
    });
    if (!change.success) {
      const issue = change.error.issues[0];
      const field = LIMIT_FIELDS.find(({ name }) => name === issue?.path[0]);
      const [min, max] = field ? REALTIME_CONFIG_BOUNDS[field.name] : [0, 0];
      setProblem(
        field
          ? `${field.label} must be a whole number from ${min.toLocaleString()} to ${max.toLocaleString()}`
          : (issue?.message ?? "Check the values"),
      );
      return;
    }
    setProblem(null);
    update.mutate(
      { ref: projectRef, change: change.data },
      {
        onSuccess: () => toast.success("Realtime settings saved"),
        onError: (error) =>
          toast.error(
            `Failed to update the Realtime settings: ${errorMessage(error)}`,
          ),
      },
    );
  };

  return (
    // noValidate: the bounds are checked by the settings' own schema, whose message names the field and its range.
    <form className="stack" onSubmit={save} noValidate>
      <Card title="Channel restrictions">
        <Checkbox
          label="Allow public access"
          hint="Public channels can be joined by anyone with the project's publishable key. Turned off, only private channels can be joined: their access is decided by the policies on realtime.messages."
          checked={!draft.private_only}
          onCheckedChange={(allowed) =>
            setDraft({ ...draft, private_only: !allowed })
          }
          disabled={!canUpdate}
        />
      </Card>
      <Card
        title="Limits"
        description="Past a limit, Realtime refuses with the message Supabase sends (for example 'Too many connected users')."
        footer={
          <div className="api-row">
            <span className="muted">{changed ? "Unsaved changes" : ""}</span>
            <Button
              type="submit"
              variant="primary"
              disabled={!canUpdate || !changed || update.isPending}
              disabledReason={!canUpdate ? PERMISSION_TEXT : undefined}
              loading={update.isPending}
            >
              Save
            </Button>
          </div>
        }
      >
        <div className="stack">
          <div className="realtime-settings-grid">
            {LIMIT_FIELDS.map(({ name, label, hint }) => (
              <TextField
                key={name}
                label={label}
                hint={hint}
                type="number"
                min={REALTIME_CONFIG_BOUNDS[name][0]}
                max={REALTIME_CONFIG_BOUNDS[name][1]}
                value={draft[name]}
                onChange={(event) =>
                  setDraft({ ...draft, [name]: event.target.value })
                }
                disabled={!canUpdate}
              />
            ))}
          </div>
          {problem ? (
            <Alert tone="danger" title="Check the settings">
              {problem}
            </Alert>
          ) : null}
        </div>
      </Card>
    </form>
  );
}

function ShutdownCard({
  projectRef,
  canUpdate,
  suspended,
}: {
  projectRef: string;
  canUpdate: boolean;
  suspended: boolean;
}) {
  const toast = useToast();
  const shutdown = useShutdownRealtime();
  const update = useUpdateRealtimeConfig();
  return (
    <Card
      title="Connections"
      description="Disconnect every client of the project now: apps reconnect by themselves. Suspending refuses every connection until it is resumed."
    >
      <div className="api-row">
        <span className="muted">
          {suspended
            ? "Realtime is suspended: connections are refused."
            : "Realtime is serving connections."}
        </span>
        <div className="realtime-settings-actions">
          <Button
            disabled={!canUpdate || shutdown.isPending}
            disabledReason={!canUpdate ? PERMISSION_TEXT : undefined}
            loading={shutdown.isPending}
            onClick={() =>
              shutdown.mutate(
                { ref: projectRef },
                {
                  onSuccess: () => toast.success("Realtime connections closed"),
                  onError: (error) =>
                    toast.error(
                      `Failed to close the connections: ${errorMessage(error)}`,
                    ),
                },
              )
            }
          >
            Disconnect all clients
          </Button>
          <Button
            variant={suspended ? "primary" : "danger"}
            disabled={!canUpdate || update.isPending}
            disabledReason={!canUpdate ? PERMISSION_TEXT : undefined}
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { ref: projectRef, change: { suspend: !suspended } },
                {
                  onSuccess: () =>
                    toast.success(
                      suspended ? "Realtime resumed" : "Realtime suspended",
                    ),
                  onError: (error) =>
                    toast.error(
                      `Failed to update the Realtime settings: ${errorMessage(error)}`,
                    ),
                },
              )
            }
          >
            {suspended ? "Resume Realtime" : "Suspend Realtime"}
          </Button>
        </div>
      </div>
    </Card>
  );
}

const REPLICA_IDENTITY_TEXT: Record<RealtimeTable["replica_identity"], string> =
  {
    full: "Full: updates and deletes carry the whole old row",
    default: "Default: updates and deletes carry the old primary key",
    index: "Index: updates and deletes carry the old row's index columns",
    nothing: "Nothing: updates and deletes carry no old row",
  };

/** The supabase_realtime publication's tables: whose changes reach subscribers. The table editor's switch changes them. */
function RealtimeTablesCard({ projectRef }: { projectRef: string }) {
  const tables = useRealtimeTables(projectRef);
  const list = tables.data ?? [];
  return (
    <Card
      title="Tables streamed"
      description="Postgres changes are sent for the tables of the supabase_realtime publication. Add or remove one with the Realtime switch of the table editor, or with ALTER PUBLICATION."
      flush={list.length > 0}
    >
      {tables.isError ? (
        <Alert tone="danger" title="Failed to read the publication">
          {errorMessage(tables.error)}
        </Alert>
      ) : tables.isPending ? (
        <p className="muted">Loading…</p>
      ) : list.length === 0 ? (
        <p className="muted">
          No table is in the publication yet: subscribers receive no Postgres
          changes.
        </p>
      ) : (
        <table className="table realtime-tables" aria-label="Tables streamed">
          <thead>
            <tr>
              <th>Table</th>
              <th>Row level security</th>
              <th>Replica identity</th>
            </tr>
          </thead>
          <tbody>
            {list.map((table) => (
              <tr key={table.id}>
                <td>
                  <Link
                    to={`/project/${projectRef}/editor/${table.id}?schema=${encodeURIComponent(table.schema)}`}
                  >
                    {table.schema}.{table.name}
                  </Link>
                </td>
                <td>
                  {table.rls_enabled
                    ? "Enabled: subscribers see the rows their policies allow"
                    : "Disabled: every subscriber sees every row"}
                </td>
                <td>{REPLICA_IDENTITY_TEXT[table.replica_identity]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}
