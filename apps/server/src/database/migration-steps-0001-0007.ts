import { type Kysely } from "kysely";
import type { Migration } from "kysely/migration";

// Only portable column types (text, integer) and indexes both engines build alike (plain, or partial on a comparison
// with a literal): every migration must run on SQLite and PostgreSQL.
// Migrations receive `Kysely<unknown>` because they must not depend on today's schema types.
/** The migrations of the first releases: contact, identity, study, billing, MFA, social accounts, rate-limit windows. */
export const migrationsOfTheFirstReleases: Record<string, Migration> = {
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
};
