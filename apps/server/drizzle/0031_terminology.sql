-- pg_trgm: the GIN trigram indexes of concept and synonym names (search by a word inside a name).
-- It is a trusted extension (PostgreSQL 13+): the database owner may create it. PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "terminology_concepts" (
	"concept_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer,
	"system_key" text NOT NULL,
	"code" text NOT NULL,
	"display_zh" text NOT NULL,
	"display_en" text DEFAULT '' NOT NULL,
	"parent_code" text,
	"level" integer DEFAULT 1 NOT NULL,
	"retired" boolean DEFAULT false NOT NULL,
	"pinyin" text DEFAULT '' NOT NULL,
	"local" boolean DEFAULT false NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "terminology_concepts_local_app" CHECK ("terminology_concepts"."local" = ("terminology_concepts"."app_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "terminology_concepts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "terminology_synonyms" (
	"synonym_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer,
	"concept_id" integer NOT NULL,
	"term" text NOT NULL,
	"pinyin" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "terminology_synonyms" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "terminology_systems" (
	"system_key" text PRIMARY KEY NOT NULL,
	"name_zh" text NOT NULL,
	"name_en" text NOT NULL,
	"domain" text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	"licence" text DEFAULT '' NOT NULL,
	"source_url" text DEFAULT '' NOT NULL,
	"uri" text DEFAULT '' NOT NULL,
	"loaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "terminology_concepts" ADD CONSTRAINT "terminology_concepts_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminology_concepts" ADD CONSTRAINT "terminology_concepts_system_key_terminology_systems_system_key_fk" FOREIGN KEY ("system_key") REFERENCES "public"."terminology_systems"("system_key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminology_concepts" ADD CONSTRAINT "terminology_concepts_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminology_synonyms" ADD CONSTRAINT "terminology_synonyms_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminology_synonyms" ADD CONSTRAINT "terminology_synonyms_concept_id_terminology_concepts_concept_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."terminology_concepts"("concept_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "terminology_concepts_standard_code" ON "terminology_concepts" USING btree ("system_key","code") WHERE "terminology_concepts"."app_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "terminology_concepts_local_code" ON "terminology_concepts" USING btree ("system_key","app_id","code") WHERE "terminology_concepts"."app_id" is not null;--> statement-breakpoint
CREATE INDEX "terminology_concepts_parent" ON "terminology_concepts" USING btree ("system_key","parent_code");--> statement-breakpoint
CREATE INDEX "terminology_concepts_code_prefix" ON "terminology_concepts" USING btree ("code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_concepts_display_prefix" ON "terminology_concepts" USING btree ("display_zh" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_concepts_pinyin_prefix" ON "terminology_concepts" USING btree ("pinyin" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_concepts_display_trgm" ON "terminology_concepts" USING gin ("display_zh" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "terminology_synonyms_concept_term" ON "terminology_synonyms" USING btree ("concept_id","term");--> statement-breakpoint
CREATE INDEX "terminology_synonyms_term_prefix" ON "terminology_synonyms" USING btree ("term" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_synonyms_pinyin_prefix" ON "terminology_synonyms" USING btree ("pinyin" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "terminology_synonyms_term_trgm" ON "terminology_synonyms" USING gin ("term" gin_trgm_ops);--> statement-breakpoint
CREATE POLICY "app_scope" ON "terminology_concepts" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope_read" ON "terminology_concepts" AS PERMISSIVE FOR SELECT TO public USING ("terminology_concepts"."app_id" is null);--> statement-breakpoint
CREATE POLICY "app_scope" ON "terminology_synonyms" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope_read" ON "terminology_synonyms" AS PERMISSIVE FOR SELECT TO public USING ("terminology_synonyms"."app_id" is null);--> statement-breakpoint
ALTER TABLE "terminology_concepts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "terminology_synonyms" FORCE ROW LEVEL SECURITY;
