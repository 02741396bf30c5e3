import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/ui/card";
import { LocalTime } from "~/components/ui/local-time";
import { pages } from "~/content/pages";
import { requireAdmin } from "~/features/auth/guard.server";
import { preferencesOf } from "~/features/engagement/consent.server";
import { formatSeconds } from "~/features/engagement/reading-stats";
import { recordOf } from "~/features/engagement/record.server";
import { NO_STORE } from "~/utils/no-store";
import { ROOMS_ADMIN_PATH, roomIdOf } from "~/features/rooms/paths";
import { roomById, roomInvestors } from "~/features/rooms/rooms.server";
import { getDb } from "~/utils/db.server";
import { pageMeta } from "~/utils/meta";

const notFound = () => new Response("Not Found", { status: 404, headers: NO_STORE });

interface VersionReport {
  key: string;
  document: string;
  version: string;
  firstOpenedAt: number | null;
  opens: number;
  downloads: number;
  pages: { page: number; seconds: string }[];
}

/** One investor's "Reading report" in one room (docs/decisions/116): per document and version. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { env } = context.cloudflare;
  await requireAdmin(request, env);
  const id = roomIdOf(params.id);
  const invitationId = /^\d{1,12}$/.test(params.invitation ?? "") ? Number(params.invitation) : null;
  if (!id || invitationId === null) throw notFound();
  const db = getDb(env);
  const room = await roomById(db, id);
  if (!room) throw notFound();
  const investor = (await roomInvestors(db, room.id)).find((i) => i.invitationId === invitationId);
  if (!investor) throw notFound();
  const [record, preferences] = await Promise.all([recordOf(db, invitationId), preferencesOf(db, invitationId)]);
  const versions = new Map<string, VersionReport>();
  const entry = (documentId: string, document: string, versionId: number, version: string) => {
    const key = `${documentId}:${versionId}`;
    let found = versions.get(key);
    if (!found) {
      found = { key, document, version, firstOpenedAt: null, opens: 0, downloads: 0, pages: [] };
      versions.set(key, found);
    }
    return found;
  };
  const versionNames = new Map<number, string>();
  for (const v of record.views) {
    versionNames.set(v.versionId, v.version);
    const e = entry(v.document, v.document, v.versionId, v.version);
    if (v.kind === "open") {
      e.opens += 1;
      e.firstOpenedAt = e.firstOpenedAt === null ? v.at : Math.min(e.firstOpenedAt, v.at);
    } else e.downloads += 1;
  }
  for (const p of record.pageTimes) {
    const e = entry(p.document, p.document, p.versionId, versionNames.get(p.versionId) ?? `version ${p.versionId}`);
    e.pages.push({ page: p.page, seconds: formatSeconds(p.ms / 1000) });
  }
  return json(
    {
      room: { id: room.id, title: room.title },
      investor: {
        name: investor.name,
        firm: investor.firm,
        email: investor.email,
        firstOpenedAt: investor.firstOpenedAt,
        analytics: preferences.analytics,
      },
      versions: [...versions.values()],
    },
    { headers: NO_STORE },
  );
}

export const headers = () => NO_STORE;

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta({
    page: {
      ...pages.roomsAdmin,
      path: data ? `${ROOMS_ADMIN_PATH}/${data.room.id}` : ROOMS_ADMIN_PATH,
      title: data ? `Reading report: ${data.investor.name}` : "Reading report",
    },
    matches,
  }),
  { name: "robots", content: "noindex" },
];

export default function ReadingReport() {
  const { room, investor, versions } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 pb-16 pt-10">
      <p className="text-sm">
        <Link to={`${ROOMS_ADMIN_PATH}/${room.id}`} className="text-primary underline-offset-4 hover:underline">
          Back to {room.title}
        </Link>
      </p>
      <header className="mt-2">
        <h1 className="wrap-anywhere text-3xl font-bold tracking-tight">Reading report: {investor.name}</h1>
        <p className="wrap-anywhere mt-2 text-muted-foreground">
          {investor.firm ? `${investor.firm} · ` : ""}
          {investor.email} ·{" "}
          {investor.firstOpenedAt !== null ? (
            <>
              opened the room <LocalTime ms={investor.firstOpenedAt} />
            </>
          ) : (
            "has not opened the room"
          )}{" "}
          · {investor.analytics ? "lets us record page times" : "page times not recorded (no consent)"}
        </p>
      </header>
      {versions.length === 0 ? (
        <p className="mt-6 text-muted-foreground">No document opened yet.</p>
      ) : (
        <ul className="mt-6 space-y-4">
          {versions.map((v) => (
            <li key={v.key}>
              <Card padding="sm" className="min-w-0 space-y-2">
                <h2 className="wrap-anywhere font-semibold">
                  {v.document} <span className="text-sm font-normal text-muted-foreground">({v.version})</span>
                </h2>
                <p className="text-sm">
                  {v.firstOpenedAt !== null ? (
                    <>
                      Opened <LocalTime ms={v.firstOpenedAt} /> ({v.opens} {v.opens === 1 ? "time" : "times"})
                    </>
                  ) : (
                    "Not opened"
                  )}
                  {v.downloads ? ` · ${v.downloads} download(s)` : ""}
                </p>
                {v.pages.length ? (
                  <table className="w-full text-sm">
                    <caption className="sr-only">{`${v.document}: seconds per page`}</caption>
                    <thead>
                      <tr>
                        <th scope="col" className="text-left">
                          Page
                        </th>
                        <th scope="col" className="text-right">
                          Time
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {v.pages.map((p) => (
                        <tr key={p.page} data-testid="page-time">
                          <th scope="row" className="text-left font-normal">
                            Page {p.page}
                          </th>
                          <td className="text-right tabular-nums">{p.seconds}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <p className="text-sm text-muted-foreground">No page times recorded.</p>
                )}
              </Card>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
