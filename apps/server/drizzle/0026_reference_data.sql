CREATE TABLE "dictionaries" (
	"dictionary_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"builtin" boolean DEFAULT false NOT NULL,
	"standard_system" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dictionaries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "dictionary_entries" (
	"entry_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"dictionary_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"pinyin" text DEFAULT '' NOT NULL,
	"synonyms" text[] DEFAULT '{}'::text[] NOT NULL,
	"standard_code" text DEFAULT '' NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dictionary_entries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "hospital_units" (
	"unit_id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"kind" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"pinyin" text DEFAULT '' NOT NULL,
	"parent_id" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hospital_units_kind" CHECK ("hospital_units"."kind" in ('campus', 'department', 'ward'))
);
--> statement-breakpoint
ALTER TABLE "hospital_units" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "dictionaries" ADD CONSTRAINT "dictionaries_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionary_entries" ADD CONSTRAINT "dictionary_entries_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionary_entries" ADD CONSTRAINT "dictionary_entries_dictionary_id_dictionaries_dictionary_id_fk" FOREIGN KEY ("dictionary_id") REFERENCES "public"."dictionaries"("dictionary_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_units" ADD CONSTRAINT "hospital_units_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_units" ADD CONSTRAINT "hospital_units_parent_id_hospital_units_unit_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."hospital_units"("unit_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dictionaries_app_code" ON "dictionaries" USING btree ("app_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "dictionary_entries_code" ON "dictionary_entries" USING btree ("dictionary_id","code");--> statement-breakpoint
CREATE INDEX "dictionary_entries_app" ON "dictionary_entries" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "hospital_units_app_code" ON "hospital_units" USING btree ("app_id","code");--> statement-breakpoint
CREATE INDEX "hospital_units_parent" ON "hospital_units" USING btree ("parent_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "dictionaries" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "dictionary_entries" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "hospital_units" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "dictionaries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "dictionary_entries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "hospital_units" FORCE ROW LEVEL SECURITY;
