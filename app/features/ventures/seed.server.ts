/**
 * Seeding the catalogue with the nine starting ventures (app/content/ventures.ts), each as it
 * rendered before the catalogue: its website from VENTURE_DOMAINS and its video from
 * SUBSIDIARY_VIDEOS, read here once (docs/ventures.md "Seeding"). Idempotent: a venture already in
 * the catalogue is left exactly as it is (an admin's edits are never overwritten), and its first
 * revision is written only with it. Runs through the data layer (the suites' setup, `npm start`
 * through wrangler's platform proxy) or, for production, as SQL text (scripts/ventures-seed.mjs).
 */
import { sql, type SQL } from "drizzle-orm";
import { contentGeneration, ventureRevisions, ventures } from "~/db/schema";
import { STARTING_VENTURES } from "~/content/ventures";
import { batch, type Db } from "~/utils/db.server";
import { revisionState } from "./revisions";

export interface SeedConfig {
  /** VENTURE_DOMAINS, parsed (parseDomainConfig). */
  domains?: Readonly<Record<string, string>>;
  /** SUBSIDIARY_VIDEOS, parsed (parseVideoConfig). */
  videos?: Readonly<Record<string, string>>;
}

/**
 * The seed as statements of one batch.
 * Raw SQL (docs/decisions/024-data-layer.md): INSERT OR IGNORE and INSERT … WHERE NOT EXISTS keep
 * it idempotent, and the same text runs through `wrangler d1 execute --file` for production.
 */
export function ventureSeedStatements({ domains = {}, videos = {} }: SeedConfig, now = Date.now()): SQL[] {
  return [
    ...STARTING_VENTURES.flatMap((s, position) => {
      const domain = domains[s.id];
      const row = {
        name: s.name,
        tagline: s.tagline,
        description: s.description,
        stage: s.status,
        colour: s.colour,
        icon: s.icon,
        logo: null,
        logoWidth: null,
        logoHeight: null,
        website: domain ? `https://${domain}` : null,
        video: videos[s.id] ?? null,
        shown: true,
      };
      return [
        sql`INSERT INTO ${ventures} (id, name, tagline, description, stage, colour, icon, website, video, position, shown, updated_at)
            SELECT ${s.id}, ${row.name}, ${row.tagline}, ${row.description}, ${row.stage}, ${row.colour}, ${row.icon},
                   ${row.website}, ${row.video}, ${position}, 1, ${now}
            WHERE NOT EXISTS (SELECT 1 FROM ${ventures} WHERE id = ${s.id})`,
        sql`INSERT INTO ${ventureRevisions} (venture_id, revised_by, revised_at, changed, state)
            SELECT ${s.id}, 'seed', ${now}, 'created', ${JSON.stringify(revisionState(row))}
            WHERE NOT EXISTS (SELECT 1 FROM ${ventureRevisions} WHERE venture_id = ${s.id})`,
      ];
    }),
    sql`INSERT OR IGNORE INTO ${contentGeneration} (id, value) VALUES (1, 1)`,
  ];
}

/** Seeds the catalogue through the data layer (a no-op for ventures already there). */
export async function seedVentures(db: Db, config: SeedConfig, now = Date.now()): Promise<void> {
  await batch(db, ventureSeedStatements(config, now));
}
