import { PostgresAdapter, sql, type Kysely } from "kysely";
import { Migrator, type Migration, type MigrationResultSet } from "kysely/migration";
import type { DatabaseSchema } from "./schema.ts";

// Only portable column types (text, integer) and indexes both engines build alike (plain, or partial on a comparison
// with a literal): every migration must run on SQLite and PostgreSQL.
// Migrations receive `Kysely<unknown>` because they must not depend on today's schema types.
export const migrations: Record<string, Migration> = {
  "0001-contact-outbox-captcha-rate-limit": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("contact_message")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("email", "text", (column) => column.notNull())
        .addColumn("message", "text", (column) => column.notNull())
        .addColumn("ip_address", "text")
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("delivery_status", "text", (column) => column.notNull())
        .addColumn("delivery_error", "text")
        .execute();
      await database.schema.createIndex("contact_message_created_at_index").on("contact_message").column("created_at").execute();

      await database.schema
        .createTable("outbox_mail")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("to_address", "text", (column) => column.notNull())
        .addColumn("from_address", "text", (column) => column.notNull())
        .addColumn("reply_to", "text")
        .addColumn("subject", "text", (column) => column.notNull())
        .addColumn("text_body", "text", (column) => column.notNull())
        .addColumn("html_body", "text")
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("outbox_mail_created_at_index").on("outbox_mail").column("created_at").execute();

      await database.schema
        .createTable("captcha_spent_challenge")
        .addColumn("challenge_hash", "text", (column) => column.primaryKey())
        .addColumn("expires_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("captcha_spent_challenge_expires_at_index").on("captcha_spent_challenge").column("expires_at").execute();

      await database.schema
        .createTable("rate_limit_hit")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("scope", "text", (column) => column.notNull())
        .addColumn("client_address", "text", (column) => column.notNull())
        .addColumn("hit_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("rate_limit_hit_lookup_index").on("rate_limit_hit").columns(["scope", "client_address", "hit_at"]).execute();
    },
    async down(database: Kysely<unknown>) {
      for (const table of ["rate_limit_hit", "captcha_spent_challenge", "outbox_mail", "contact_message"]) {
        await database.schema.dropTable(table).execute();
      }
    },
  },
  "0002-identity": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("identity_user")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("password_hash", "text")
        .addColumn("is_active", "integer", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();

      await database.schema
        .createTable("identity_email_address")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("user_id", "text", (column) => column.notNull().references("identity_user.id").onDelete("cascade"))
        .addColumn("email", "text", (column) => column.notNull())
        .addColumn("verified", "integer", (column) => column.notNull())
        .addColumn("is_primary", "integer", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("identity_email_address_user_email_index").on("identity_email_address").columns(["user_id", "email"]).unique().execute();
      await database.schema.createIndex("identity_email_address_email_index").on("identity_email_address").column("email").execute();

      await database.schema
        .createTable("identity_session")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("token_hash", "text", (column) => column.notNull().unique())
        .addColumn("number", "integer", (column) => column.notNull().unique())
        .addColumn("client", "text", (column) => column.notNull())
        .addColumn("user_id", "text", (column) => column.references("identity_user.id").onDelete("cascade"))
        .addColumn("methods_json", "text", (column) => column.notNull())
        .addColumn("pending_json", "text")
        .addColumn("ip", "text", (column) => column.notNull())
        .addColumn("user_agent", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("last_seen_at", "text", (column) => column.notNull())
        .addColumn("expires_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("identity_session_user_index").on("identity_session").column("user_id").execute();
      await database.schema.createIndex("identity_session_expires_at_index").on("identity_session").column("expires_at").execute();

      await database.schema
        .createTable("identity_code")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("purpose", "text", (column) => column.notNull())
        .addColumn("kind", "text", (column) => column.notNull())
        .addColumn("secret_hash", "text", (column) => column.notNull())
        .addColumn("session_id", "text", (column) => column.references("identity_session.id").onDelete("cascade"))
        .addColumn("user_id", "text", (column) => column.references("identity_user.id").onDelete("cascade"))
        .addColumn("email", "text", (column) => column.notNull())
        .addColumn("failed_attempts", "integer", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("expires_at", "text", (column) => column.notNull())
        .addColumn("consumed_at", "text")
        .execute();
      await database.schema.createIndex("identity_code_secret_hash_index").on("identity_code").column("secret_hash").execute();
      await database.schema.createIndex("identity_code_session_index").on("identity_code").columns(["session_id", "purpose"]).execute();
    },
    async down(database: Kysely<unknown>) {
      for (const table of ["identity_code", "identity_session", "identity_email_address", "identity_user"]) {
        await database.schema.dropTable(table).execute();
      }
    },
  },
  "0003-study": {
    async up(database: Kysely<unknown>) {
      // A subtitle group and its flashcard pairs. Only the parser's plain cue text is stored, never the uploaded XML.
      await database.schema
        .createTable("subtitle_group")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("owner_id", "text", (column) => column.notNull().references("identity_user.id").onDelete("cascade"))
        .addColumn("name", "text", (column) => column.notNull())
        .addColumn("is_public", "integer", (column) => column.notNull())
        .addColumn("pair_count", "integer", (column) => column.notNull())
        .addColumn("alignment_report_json", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("subtitle_group_owner_index").on("subtitle_group").columns(["owner_id", "created_at"]).execute();
      await database.schema.createIndex("subtitle_group_public_index").on("subtitle_group").columns(["is_public", "created_at"]).execute();

      await database.schema
        .createTable("subtitle_pair")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("group_id", "text", (column) => column.notNull().references("subtitle_group.id").onDelete("cascade"))
        .addColumn("position", "integer", (column) => column.notNull())
        .addColumn("english", "text", (column) => column.notNull())
        .addColumn("swedish", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("subtitle_pair_group_position_index").on("subtitle_pair").columns(["group_id", "position"]).unique().execute();

      // One learner's progress on one pair; the learner key is "user:<id>" or "anonymous:<learner_id cookie>".
      await database.schema
        .createTable("study_progress")
        .addColumn("learner_key", "text", (column) => column.notNull())
        .addColumn("pair_id", "text", (column) => column.notNull().references("subtitle_pair.id").onDelete("cascade"))
        .addColumn("group_id", "text", (column) => column.notNull().references("subtitle_group.id").onDelete("cascade"))
        .addColumn("box", "integer", (column) => column.notNull())
        .addColumn("review_count", "integer", (column) => column.notNull())
        .addColumn("correct_count", "integer", (column) => column.notNull())
        .addColumn("studied_at", "text")
        .addColumn("last_reviewed_at", "text")
        .addColumn("due_at", "text")
        .addColumn("updated_at", "text", (column) => column.notNull())
        .addPrimaryKeyConstraint("study_progress_primary_key", ["learner_key", "pair_id"])
        .execute();
      await database.schema.createIndex("study_progress_learner_group_index").on("study_progress").columns(["learner_key", "group_id"]).execute();
      await database.schema.createIndex("study_progress_learner_box_index").on("study_progress").columns(["learner_key", "box"]).execute();
      await database.schema.createIndex("study_progress_pair_index").on("study_progress").column("pair_id").execute();
      await database.schema.createIndex("study_progress_group_index").on("study_progress").column("group_id").execute();
    },
    async down(database: Kysely<unknown>) {
      for (const table of ["study_progress", "subtitle_pair", "subtitle_group"]) {
        await database.schema.dropTable(table).execute();
      }
    },
  },
  "0004-billing": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("billing_customer")
        .addColumn("user_id", "text", (column) => column.primaryKey())
        .addColumn("provider", "text", (column) => column.notNull())
        .addColumn("customer_id", "text", (column) => column.notNull().unique())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema
        .createTable("billing_subscription")
        .addColumn("subscription_id", "text", (column) => column.primaryKey())
        .addColumn("customer_id", "text", (column) => column.notNull())
        .addColumn("user_id", "text", (column) => column.notNull())
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("price_id", "text", (column) => column.notNull())
        .addColumn("plan_key", "text")
        .addColumn("amount_in_cents", "integer")
        .addColumn("current_period_end", "integer")
        .addColumn("cancel_at_period_end", "integer", (column) => column.notNull())
        .addColumn("synced_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("billing_subscription_customer_index").on("billing_subscription").column("customer_id").execute();
      await database.schema.createIndex("billing_subscription_user_index").on("billing_subscription").column("user_id").execute();
      await database.schema
        .createTable("billing_webhook_delivery")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("event_id", "text", (column) => column.notNull())
        .addColumn("event_type", "text", (column) => column.notNull())
        .addColumn("customer_id", "text")
        .addColumn("received_at", "text", (column) => column.notNull())
        .addColumn("outcome", "text", (column) => column.notNull())
        .addColumn("error", "text")
        .execute();
      await database.schema.createIndex("billing_webhook_delivery_event_index").on("billing_webhook_delivery").column("event_id").execute();
      await database.schema.createIndex("billing_webhook_delivery_received_index").on("billing_webhook_delivery").column("received_at").execute();

      await database.schema
        .createTable("dev_billing_customer")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("user_id", "text", (column) => column.notNull())
        .addColumn("email", "text")
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema
        .createTable("dev_billing_checkout_session")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("customer_id", "text", (column) => column.notNull())
        .addColumn("price_id", "text", (column) => column.notNull())
        .addColumn("success_url", "text", (column) => column.notNull())
        .addColumn("cancel_url", "text", (column) => column.notNull())
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
      await database.schema
        .createTable("dev_billing_subscription")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("customer_id", "text", (column) => column.notNull())
        .addColumn("price_id", "text", (column) => column.notNull())
        .addColumn("status", "text", (column) => column.notNull())
        .addColumn("current_period_end", "integer", (column) => column.notNull())
        .addColumn("cancel_at_period_end", "integer", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("updated_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("dev_billing_subscription_customer_index").on("dev_billing_subscription").column("customer_id").execute();
      await database.schema
        .createTable("dev_billing_portal_session")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("customer_id", "text", (column) => column.notNull())
        .addColumn("return_url", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .execute();
    },
    async down(database: Kysely<unknown>) {
      for (const table of [
        "dev_billing_portal_session",
        "dev_billing_subscription",
        "dev_billing_checkout_session",
        "dev_billing_customer",
        "billing_webhook_delivery",
        "billing_subscription",
        "billing_customer",
      ]) {
        await database.schema.dropTable(table).execute();
      }
    },
  },
  "0005-identity-mfa": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("identity_authenticator")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("number", "integer", (column) => column.notNull())
        .addColumn("user_id", "text", (column) => column.notNull().references("identity_user.id").onDelete("cascade"))
        .addColumn("type", "text", (column) => column.notNull())
        .addColumn("name", "text")
        .addColumn("credential_id", "text")
        .addColumn("data_json", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("last_used_at", "text")
        .execute();
      await database.schema.createIndex("identity_authenticator_user_index").on("identity_authenticator").columns(["user_id", "type"]).execute();
      await database.schema.createIndex("identity_authenticator_number_index").on("identity_authenticator").column("number").unique().execute();
      await database.schema.createIndex("identity_authenticator_credential_index").on("identity_authenticator").column("credential_id").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropTable("identity_authenticator").execute();
    },
  },
  "0006-identity-social-accounts": {
    async up(database: Kysely<unknown>) {
      await database.schema
        .createTable("identity_social_account")
        .addColumn("id", "text", (column) => column.primaryKey())
        .addColumn("user_id", "text", (column) => column.notNull().references("identity_user.id").onDelete("cascade"))
        .addColumn("provider", "text", (column) => column.notNull())
        .addColumn("uid", "text", (column) => column.notNull())
        .addColumn("display", "text", (column) => column.notNull())
        .addColumn("extra_data_json", "text", (column) => column.notNull())
        .addColumn("created_at", "text", (column) => column.notNull())
        .addColumn("last_login_at", "text", (column) => column.notNull())
        .execute();
      await database.schema.createIndex("identity_social_account_provider_uid_index").on("identity_social_account").columns(["provider", "uid"]).unique().execute();
      await database.schema.createIndex("identity_social_account_user_index").on("identity_social_account").column("user_id").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropTable("identity_social_account").execute();
    },
  },
  "0007-rate-limit-window": {
    async up(database: Kysely<unknown>) {
      // One row per scope, client and window: a request is one upsert that returns the window's count, so a hot
      // limit (every study call) costs one statement and stays exact across processes.
      await database.schema
        .createTable("rate_limit_window")
        .addColumn("scope", "text", (column) => column.notNull())
        .addColumn("client_key", "text", (column) => column.notNull())
        .addColumn("window_start", "text", (column) => column.notNull())
        .addColumn("request_count", "integer", (column) => column.notNull())
        .addPrimaryKeyConstraint("rate_limit_window_primary_key", ["scope", "client_key", "window_start"])
        .execute();
      await database.schema.createIndex("rate_limit_window_start_index").on("rate_limit_window").column("window_start").execute();
    },
    async down(database: Kysely<unknown>) {
      await database.schema.dropTable("rate_limit_window").execute();
    },
  },
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
};

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

function createMigrator(database: Kysely<DatabaseSchema>, options: { postgresSchema?: string }): Migrator {
  // Kysely finds its bookkeeping tables by name in every schema unless told which one: name it when the database
  // lives in its own schema, or a second schema's tables (another test run) are taken for this one's.
  return new Migrator({
    db: database,
    provider: { getMigrations: async () => migrations },
    ...(options.postgresSchema ? { migrationTableSchema: options.postgresSchema } : {}),
  });
}

function throwOnFailedMigration({ error, results }: MigrationResultSet): void {
  if (error) {
    const failedMigration = results?.find((result) => result.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`The database migration "${failedMigration}" failed. Fix it before starting the server.`, { cause: error });
  }
}

/**
 * Brings the database schema to the latest migration; throws with the failing migration's name.
 *
 * @example
 * await migrateToLatest(database);
 */
export async function migrateToLatest(database: Kysely<DatabaseSchema>, options: { postgresSchema?: string } = {}): Promise<void> {
  throwOnFailedMigration(await createMigrator(database, options).migrateToLatest());
}

/**
 * Brings the database schema to the named migration and no further: a database as an earlier release left it, for
 * tests of an upgrade. Throws with the failing migration's name.
 *
 * @example
 * await migrateUpTo(database, "0007-rate-limit-window");
 */
export async function migrateUpTo(database: Kysely<DatabaseSchema>, lastMigrationName: string, options: { postgresSchema?: string } = {}): Promise<void> {
  if (!(lastMigrationName in migrations)) {
    throw new Error(`There is no migration named "${lastMigrationName}"; the migrations are ${Object.keys(migrations).join(", ")}.`);
  }
  throwOnFailedMigration(await createMigrator(database, options).migrateTo(lastMigrationName));
}
