import { PostgresAdapter, sql, type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Only portable column types (text, integer) and indexes both engines build alike (plain, or partial on a comparison
// with a literal): every migration must run on SQLite and PostgreSQL.
// Migrations receive `Kysely<unknown>` because they must not depend on today's schema types.
// The exceptions: 0013's triggers and unlogged table, written for each engine (decision 0036), and 0014's change count,
// SQLite's alone (decision 0052).
/** The migrations since 0008: hidden pairs, security events, the study indexes, the rating's writes, the identity change count, the billing read order. */
export const migrationsSinceHiddenPairs: Record<string, Migration> = {
  "0008-pair-confidence-and-hidden-pairs": {
    async up(database: Kysely<unknown>) {
      // How sure the alignment was of each pair (0–1); pairs stored before it was measured count as sure.
      await database.schema.alterTable("subtitle_pair").addColumn("confidence", "double precision", (column) => column.notNull().defaultTo(1)).execute();
      // A learner of someone else's public group hides a pair for themselves only.
      await database.schema
        .createTable("study_hidden_pair")
        .addColumn("learner_key", "text", (column) => column.notNull())
        .addColumn("pair_id", "text", (column) => column.notNull().references("subtitle_pair.id").onDelete("cascade"))
        .addColumn("group_id", "text", (column) => column.notNull().references("subtitle_group.id").onDelete("cascade"))
        .addColumn("hidden_at", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("study_hidden_pair_primary_key", ["learner_key", "pair_id"])
        .execute();
      await database.schema.createIndex("study_hidden_pair_learner_group_index").on("study_hidden_pair").columns(["learner_key", "group_id"]).execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropTable("study_hidden_pair").execute();
      await database.schema.alterTable("subtitle_pair").dropColumn("confidence").execute();
    },
  },
  "0010-account-security-events": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("account_security_event")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("user_id", "text", (column) => column.notNull().references("identity_user.id").onDelete("cascade"))
        .addColumn("sequence", "integer", (column) => column.notNull())
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("method", "text")
        .addColumn("detail", "text")
        .addColumn("ip_address", "text", (column) => column.notNull())
        .addColumn("user_agent", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("account_security_event_user_index").on("account_security_event").columns(["user_id", "sequence"]).execute();
      await database.schema.createIndex("account_security_event_created_index").on("account_security_event").column("created_at").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropTable("account_security_event").execute();
    },
  },
  "0011-study-session-selection-index": {
    async up(database: Kysely<unknown>) {
      // The session's cards are chosen in SQL (decision 0016): one learner's records of a group by box and due day.
      // It starts with the learner and the group, so it also serves every lookup the older index served.
      await database.schema.createIndex("study_progress_learner_group_box_due_index").on("study_progress").columns(["learner_key", "group_id", "box", "due_at"]).execute();
      await database.schema.dropIndex("study_progress_learner_group_index").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.createIndex("study_progress_learner_group_index").on("study_progress").columns(["learner_key", "group_id"]).execute();
      await database.schema.dropIndex("study_progress_learner_group_box_due_index").execute();
    },
  },
  "0012-group-stats-indexes": {
    async up(database: Kysely<unknown>) {
      // The group stats are counted in SQL (issue 16, decision 0039): one learner's records of a group grouped by box and
      // due day, with what the counts read, so that no row is read. It starts as 0011's did and replaces it.
      await database.schema
        .createIndex("study_progress_learner_group_box_due_counts_index")
        .on("study_progress")
        .columns(["learner_key", "group_id", "box", "due_at", "review_count", "correct_count", "studied_at"])
        .execute();
      await database.schema.dropIndex("study_progress_learner_group_box_due_index").execute();
      // The stats count a group's doubtful pairs and the preview pages through them: a partial index holds only those,
      // in film order. Its predicate is study/group-stats-store.ts's `doubtfulPairConfidence`.
      await database.schema.createIndex("subtitle_pair_doubtful_index").on("subtitle_pair").columns(["group_id", "position"]).where(sql<boolean>`confidence < 0.5`).execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropIndex("subtitle_pair_doubtful_index").execute();
      await database.schema.createIndex("study_progress_learner_group_box_due_index").on("study_progress").columns(["learner_key", "group_id", "box", "due_at"]).execute();
      await database.schema.dropIndex("study_progress_learner_group_box_due_counts_index").execute();
    },
  },
  "0013-rating-writes": {
    async up(database: Kysely<unknown>) {
      const isPostgres = database.getExecutor().adapter instanceof PostgresAdapter;
      // Each learner's memorized cards (box 5) across every group, which every rating answers and the anonymous limit
      // reads (issue 16, decision 0036): counting the records cost a rating more the more a learner knew (0.8 ms at
      // 20,000). Triggers keep it, so that no way of changing records (cascades included) can leave it behind: with
      // the rate limit below, the only engine-specific SQL of the migrations, as triggers have no portable form.
      await database.schema
        .createTable("study_learner_memorized")
        .addColumn("learner_key", "text", (column) => column.primaryKey())
        .addColumn("memorized_count", "integer", (column) => column.notNull())
        .execute();
      for (const statement of isPostgres ? postgresMemorizedCountTriggers : sqliteMemorizedCountTriggers) {
        await sql.raw(statement).execute(database);
      }
      await sql`insert into study_learner_memorized (learner_key, memorized_count)
        select learner_key, count(*) from study_progress where box = ${sql.lit(memorizedBox)} group by learner_key`.execute(database);
      // It served that count alone; the primary key (learner, pair) serves the learner's other reads. One index less
      // for every rating to write.
      await database.schema.dropIndex("study_progress_learner_box_index").execute();
      // A rate limit's counts are worth nothing after a crash: unlogged, PostgreSQL writes them to no log, so their
      // commit waits for no disk, and a learner's burst of study calls (one row) no longer queues behind fsyncs.
      if (isPostgres) await sql`alter table rate_limit_window set unlogged`.execute(database);
    },
    async down(database: Kysely<unknown>) {
      const isPostgres = database.getExecutor().adapter instanceof PostgresAdapter;
      if (isPostgres) await sql`alter table rate_limit_window set logged`.execute(database);
      await database.schema.createIndex("study_progress_learner_box_index").on("study_progress").columns(["learner_key", "box"]).execute();
      for (const trigger of memorizedCountTriggerNames) {
        await sql.raw(`drop trigger ${trigger}${isPostgres ? " on study_progress" : ""}`).execute(database);
      }
      if (isPostgres) await sql`drop function study_progress_count_memorized()`.execute(database);
      await database.schema.dropTable("study_learner_memorized").execute();
    },
  },
  "0014-identity-change-count": {
    async up(database: Kysely<unknown>) {
      // SQLite only (decision 0052): a count of the changes to the tables a session's answer is made of, kept by
      // triggers so that every writer (this process, another one on the same file, a cascade, a hand-run statement)
      // moves it. The node front checks it before answering from a session it read before. PostgreSQL has no such
      // cache, so it has no count to keep.
      if (database.getExecutor().adapter instanceof PostgresAdapter) return;
      await database.schema
        .createTable("identity_change_count")
        .addColumn("id", "integer", (column) => column.primaryKey().check(sql`id = 1`))
        .addColumn("changes", "integer", (column) => column.notNull())
        .execute();
      await sql`insert into identity_change_count (id, changes) values (1, 0)`.execute(database);
      for (const [table, change] of identityChangeTriggers) {
        await sql.raw(`create trigger ${table}_counted_after_${change} after ${change} on ${table} begin update identity_change_count set changes = changes + 1; end`).execute(database);
      }
    },
    async down(database: Kysely<unknown>) {
      if (database.getExecutor().adapter instanceof PostgresAdapter) return;
      for (const [table, change] of identityChangeTriggers) await sql.raw(`drop trigger ${table}_counted_after_${change}`).execute(database);
      await database.schema.dropTable("identity_change_count").execute();
    },
  },
  "0015-billing-read-order": {
    async up(database: Kysely<unknown>) {
      // When the stored subscriptions of a customer were read from the provider (the read's start, an ISO 8601 UTC time
      // as every time here, which orders as text; milliseconds since the epoch overflow PostgreSQL's integer): a sync
      // stores its read only if no later read is stored, so that deliveries arriving at once (a checkout's three or four
      // events) cannot leave an earlier read last (decision 0074). Null: never synced.
      await database.schema.alterTable("billing_customer").addColumn("subscriptions_read_at", "text").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.alterTable("billing_customer").dropColumn("subscriptions_read_at").execute();
    },
  },
};

/** The tables a signed-in session's answer reads (`findByToken`), and each way of changing them. */
const identityChangeTriggers = ["identity_session", "identity_user", "identity_email_address"].flatMap((table) => ["insert", "update", "delete"].map((change) => [table, change] as const));

/** `@atelier/leitner`'s MEMORIZED_BOX, written out: a migration must not change when the engine does. */
const memorizedBox = 5;
const memorizedCountTriggerNames = ["study_progress_memorized_after_insert", "study_progress_memorized_after_delete", "study_progress_memorized_after_update"] as const;
// A record leaves or joins the count when its box leaves or reaches 5 (or it changes learner); a learner at 0 has no row.
const isMemorized = (record: "OLD" | "NEW") => `${record}.box = ${memorizedBox}`;
const sqliteMemorizedCountTriggers = [
  `create trigger study_progress_memorized_after_insert after insert on study_progress when ${isMemorized("NEW")} begin
    insert into study_learner_memorized (learner_key, memorized_count) values (NEW.learner_key, 1)
      on conflict (learner_key) do update set memorized_count = memorized_count + 1;
  end`,
  `create trigger study_progress_memorized_after_delete after delete on study_progress when ${isMemorized("OLD")} begin
    update study_learner_memorized set memorized_count = memorized_count - 1 where learner_key = OLD.learner_key;
    delete from study_learner_memorized where learner_key = OLD.learner_key and memorized_count <= 0;
  end`,
  `create trigger study_progress_memorized_after_update after update of box, learner_key on study_progress
    when (${isMemorized("OLD")}) <> (${isMemorized("NEW")}) or (OLD.learner_key <> NEW.learner_key and (${isMemorized("OLD")} or ${isMemorized("NEW")})) begin
    update study_learner_memorized set memorized_count = memorized_count - 1 where learner_key = OLD.learner_key and ${isMemorized("OLD")};
    delete from study_learner_memorized where learner_key = OLD.learner_key and memorized_count <= 0;
    insert into study_learner_memorized (learner_key, memorized_count) select NEW.learner_key, 1 where ${isMemorized("NEW")}
      on conflict (learner_key) do update set memorized_count = memorized_count + 1;
  end`,
];
const postgresMemorizedCountTriggers = [
  `create function study_progress_count_memorized() returns trigger language plpgsql as $$
  begin
    if TG_OP <> 'INSERT' and ${isMemorized("OLD")} then
      update study_learner_memorized set memorized_count = memorized_count - 1 where learner_key = OLD.learner_key;
      delete from study_learner_memorized where learner_key = OLD.learner_key and memorized_count <= 0;
    end if;
    if TG_OP <> 'DELETE' and ${isMemorized("NEW")} then
      insert into study_learner_memorized (learner_key, memorized_count) values (NEW.learner_key, 1)
        on conflict (learner_key) do update set memorized_count = study_learner_memorized.memorized_count + 1;
    end if;
    return null;
  end
  $$`,
  `create trigger study_progress_memorized_after_insert after insert on study_progress for each row when (${isMemorized("NEW")})
    execute function study_progress_count_memorized()`,
  `create trigger study_progress_memorized_after_delete after delete on study_progress for each row when (${isMemorized("OLD")})
    execute function study_progress_count_memorized()`,
  `create trigger study_progress_memorized_after_update after update of box, learner_key on study_progress for each row
    when ((${isMemorized("OLD")}) is distinct from (${isMemorized("NEW")}) or (OLD.learner_key is distinct from NEW.learner_key and (${isMemorized("OLD")} or ${isMemorized("NEW")})))
    execute function study_progress_count_memorized()`,
];

