import { Play, Radio, Send, Square, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useParams } from "react-router";
import { Alert } from "../../components/ui/Alert";
import { Badge } from "../../components/ui/Badge";
import { Button } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { Checkbox } from "../../components/ui/Checkbox";
import { EmptyState } from "../../components/ui/EmptyState";
import {
  SelectField,
  TextAreaField,
  TextField,
} from "../../components/ui/Field";
import { PageHeader } from "../../components/ui/PageHeader";
import { useToast } from "../../components/ui/Toast";
import {
  apiKeyOf,
  projectApiUrl,
  useProjectSettings,
} from "../../data/api-keys/useProjectSettings";
import { useProjectPageTitle } from "../../lib/useProjectPageTitle";
import {
  useRealtimeInspector,
  type InspectorMessage,
  type InspectorOptions,
  type InspectorStatus,
} from "./useRealtimeInspector";
import { RealtimeTabs } from "./RealtimeTabs";
import "./realtime.css";

const STATUS_TEXT: Record<InspectorStatus, string> = {
  idle: "Not listening",
  joining: "Joining…",
  listening: "Listening",
  error: "Failed",
  closed: "Stopped",
};

/**
 * Realtime inspector: join a channel of the project as an app would (the publishable key, or the service key for
 * members who may read it), watch its broadcasts, presence and Postgres changes live, and send a broadcast.
 */
export function RealtimeInspectorPage() {
  const { ref } = useParams();
  useProjectPageTitle("Realtime Inspector");
  const settings = useProjectSettings(ref);
  const toast = useToast();
  const serviceKey = apiKeyOf(settings.data, "service_role");
  const [role, setRole] = useState<"anon" | "service_role">("anon");
  const key = apiKeyOf(settings.data, role);
  const inspector = useRealtimeInspector(
    settings.data ? projectApiUrl(settings.data) : undefined,
    key,
  );
  const [options, setOptions] = useState<InspectorOptions>({
    channel: "inspector",
    isPrivate: false,
    broadcast: true,
    presence: false,
    changes: true,
    schema: "public",
    table: "*",
  });
  const [event, setEvent] = useState("test");
  const [payload, setPayload] = useState('{ "message": "hello" }');
  const [payloadError, setPayloadError] = useState<string>();
  const change = (partial: Partial<InspectorOptions>) =>
    setOptions((previous) => ({ ...previous, ...partial }));
  const active =
    inspector.status === "joining" || inspector.status === "listening";

  const listen = (submitted: FormEvent) => {
    submitted.preventDefault();
    if (active) void inspector.stop();
    else
      void inspector.start({
        ...options,
        channel: options.channel.trim() || "inspector",
      });
  };

  const send = async (submitted: FormEvent) => {
    submitted.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return setPayloadError("The payload must be JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return setPayloadError("The payload must be a JSON object");
    setPayloadError(undefined);
    const answer = await inspector.send(
      event.trim() || "test",
      parsed as Record<string, unknown>,
    );
    if (answer !== "ok") toast.error(`The broadcast was not sent: ${answer}`);
  };

  return (
    <div className="page realtime-page">
      <PageHeader
        title="Realtime Inspector"
        description="Join a channel as an app would and watch what reaches it: broadcasts, presence, and the changes of tables in the supabase_realtime publication that the chosen role may select."
      >
        {ref ? <RealtimeTabs projectRef={ref} /> : null}
      </PageHeader>
      <div className="realtime-layout">
        <div className="realtime-controls">
          <Card title="Channel" headingLevel={2}>
            <form className="realtime-join" onSubmit={listen}>
              <TextField
                label="Channel name"
                value={options.channel}
                onChange={(input) => change({ channel: input.target.value })}
                disabled={active}
                autoComplete="off"
              />
              <SelectField
                label="Join as"
                value={role}
                onChange={(input) =>
                  setRole(input.target.value as "anon" | "service_role")
                }
                disabled={active}
                hint={
                  role === "service_role"
                    ? "The service role bypasses row-level security: every change is shown."
                    : "The publishable key: what anyone with your app sees."
                }
              >
                <option value="anon">anon (publishable key)</option>
                {serviceKey ? (
                  <option value="service_role">
                    service_role (secret key)
                  </option>
                ) : null}
              </SelectField>
              <fieldset className="realtime-listen-to" disabled={active}>
                <legend>Listen to</legend>
                <Checkbox
                  label="Broadcast"
                  checked={options.broadcast}
                  onCheckedChange={(checked) => change({ broadcast: checked })}
                  disabled={active}
                />
                <Checkbox
                  label="Presence"
                  checked={options.presence}
                  onCheckedChange={(checked) => change({ presence: checked })}
                  disabled={active}
                />
                <Checkbox
                  label="Postgres changes"
                  checked={options.changes}
                  onCheckedChange={(checked) => change({ changes: checked })}
                  disabled={active}
                />
                <Checkbox
                  label="Private channel"
                  checked={options.isPrivate}
                  onCheckedChange={(checked) => change({ isPrivate: checked })}
                  disabled={active}
                />
              </fieldset>
              {options.changes ? (
                <div className="realtime-table">
                  <TextField
                    label="Schema"
                    value={options.schema}
                    onChange={(input) => change({ schema: input.target.value })}
                    disabled={active}
                    autoComplete="off"
                  />
                  <TextField
                    label="Table"
                    hint="* for every table of the schema"
                    value={options.table}
                    onChange={(input) => change({ table: input.target.value })}
                    disabled={active}
                    autoComplete="off"
                  />
                </div>
              ) : null}
              <div className="realtime-actions">
                <Button
                  type="submit"
                  variant={active ? "secondary" : "primary"}
                  icon={
                    active ? (
                      <Square size={14} aria-hidden="true" />
                    ) : (
                      <Play size={14} aria-hidden="true" />
                    )
                  }
                  disabled={!key}
                >
                  {active ? "Stop listening" : "Start listening"}
                </Button>
                <span
                  className="realtime-status"
                  data-status={inspector.status}
                >
                  <Badge
                    tone={
                      inspector.status === "listening"
                        ? "success"
                        : inspector.status === "error"
                          ? "danger"
                          : "neutral"
                    }
                  >
                    {STATUS_TEXT[inspector.status]}
                  </Badge>
                </span>
              </div>
            </form>
            {inspector.error ? (
              <Alert tone="danger" title="The channel was refused">
                {inspector.error}
              </Alert>
            ) : null}
          </Card>

          <Card title="Send a broadcast" headingLevel={2}>
            <form
              className="realtime-send"
              onSubmit={(submitted) => void send(submitted)}
            >
              <TextField
                label="Event"
                value={event}
                onChange={(input) => setEvent(input.target.value)}
                autoComplete="off"
              />
              <TextAreaField
                label="Payload"
                className="realtime-payload"
                value={payload}
                onChange={(input) => setPayload(input.target.value)}
                error={payloadError}
                rows={3}
                spellCheck={false}
              />
              <div className="realtime-actions">
                <Button
                  type="submit"
                  icon={<Send size={14} aria-hidden="true" />}
                  disabled={inspector.status !== "listening"}
                  disabledReason="Start listening first"
                >
                  Send broadcast
                </Button>
              </div>
            </form>
          </Card>
        </div>

        <Card
          title="Messages"
          headingLevel={2}
          actions={
            <Button
              variant="ghost"
              icon={<Trash2 size={14} aria-hidden="true" />}
              onClick={inspector.clear}
              disabled={!inspector.messages.length}
            >
              Clear
            </Button>
          }
          flush
        >
          {inspector.messages.length ? (
            <MessageList messages={inspector.messages} />
          ) : (
            <EmptyState
              icon={<Radio size={20} aria-hidden="true" />}
              title="No messages yet"
              description="What the channel hears appears here, newest first."
            />
          )}
        </Card>
      </div>
    </div>
  );
}

function MessageList({ messages }: { messages: InspectorMessage[] }) {
  return (
    <ol
      className="realtime-messages"
      aria-label="Realtime messages"
      data-testid="realtime-messages"
    >
      {messages.map((message) => (
        <li key={message.id} className="realtime-message">
          <div className="realtime-message-head">
            <Badge
              tone={
                message.type === "postgres_changes"
                  ? "info"
                  : message.type === "system"
                    ? "neutral"
                    : "success"
              }
            >
              {message.type}
            </Badge>
            <span className="realtime-message-event">{message.event}</span>
            <time dateTime={message.at.toISOString()}>
              {message.at.toLocaleTimeString()}
            </time>
          </div>
          <pre className="realtime-message-payload">
            {JSON.stringify(message.payload, null, 2)}
          </pre>
        </li>
      ))}
    </ol>
  );
}
