CREATE TABLE "variables" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"label_zh" text NOT NULL,
	"label_en" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"unit" text DEFAULT '' NOT NULL,
	"value_set" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"derivation" jsonb NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "variables_type" CHECK ("variables"."type" in ('number', 'text', 'date', 'category'))
);
--> statement-breakpoint
ALTER TABLE "variables" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variables" ADD CONSTRAINT "variables_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "variables_app_code" ON "variables" USING btree ("app_id","code");--> statement-breakpoint
CREATE INDEX "variables_app" ON "variables" USING btree ("app_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "variables" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "variables" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE TABLE "variable_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "variable_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "variable_group_members" (
	"group_id" integer NOT NULL,
	"variable_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "variable_group_members_group_id_variable_id_pk" PRIMARY KEY("group_id","variable_id")
);
--> statement-breakpoint
ALTER TABLE "variable_group_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "variable_groups" ADD CONSTRAINT "variable_groups_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_groups" ADD CONSTRAINT "variable_groups_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_group_members" ADD CONSTRAINT "variable_group_members_group_id_variable_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."variable_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_group_members" ADD CONSTRAINT "variable_group_members_variable_id_variables_id_fk" FOREIGN KEY ("variable_id") REFERENCES "public"."variables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "variable_group_members" ADD CONSTRAINT "variable_group_members_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "variable_groups_app_name" ON "variable_groups" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "variable_group_members_variable" ON "variable_group_members" USING btree ("variable_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_groups" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "variable_group_members" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "variable_groups" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "variable_group_members" FORCE ROW LEVEL SECURITY;
