CREATE TABLE "data_models" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"standard" text DEFAULT '' NOT NULL,
	"standard_version" text DEFAULT '' NOT NULL,
	"based_on" integer,
	"disease_id" integer,
	"library_id" integer,
	"subject_id" integer,
	"description" text DEFAULT '' NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_models_kind" CHECK ("data_models"."kind" in ('hospital', 'template'))
);
--> statement-breakpoint
ALTER TABLE "data_models" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_model_tables" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"table_class" text DEFAULT '' NOT NULL,
	"structure" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_model_tables" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_model_variables" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"model_id" integer NOT NULL,
	"table_id" integer NOT NULL,
	"name" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"role" text DEFAULT '' NOT NULL,
	"core" text DEFAULT '' NOT NULL,
	"codelist" text DEFAULT '' NOT NULL,
	"coding_kind" text,
	"position" integer NOT NULL,
	CONSTRAINT "data_model_variables_type" CHECK ("data_model_variables"."type" in ('Char', 'Num'))
);
--> statement-breakpoint
ALTER TABLE "data_model_variables" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_model_indicator_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"model_id" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_model_indicator_groups" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "data_model_indicator_group_members" (
	"group_id" integer NOT NULL,
	"formula_id" integer NOT NULL,
	"app_id" integer NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "data_model_indicator_group_members_group_id_formula_id_pk" PRIMARY KEY("group_id","formula_id")
);
--> statement-breakpoint
ALTER TABLE "data_model_indicator_group_members" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_disease_id_diseases_disease_id_fk" FOREIGN KEY ("disease_id") REFERENCES "public"."diseases"("disease_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_library_id_disease_libraries_id_fk" FOREIGN KEY ("library_id") REFERENCES "public"."disease_libraries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_subject_id_research_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."research_subjects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_models" ADD CONSTRAINT "data_models_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_tables" ADD CONSTRAINT "data_model_tables_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_tables" ADD CONSTRAINT "data_model_tables_model_id_data_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."data_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_variables" ADD CONSTRAINT "data_model_variables_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_variables" ADD CONSTRAINT "data_model_variables_model_id_data_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."data_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_variables" ADD CONSTRAINT "data_model_variables_table_id_data_model_tables_id_fk" FOREIGN KEY ("table_id") REFERENCES "public"."data_model_tables"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_groups" ADD CONSTRAINT "data_model_indicator_groups_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_groups" ADD CONSTRAINT "data_model_indicator_groups_model_id_data_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."data_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_groups" ADD CONSTRAINT "data_model_indicator_groups_created_by_users_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("user_id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_group_members" ADD CONSTRAINT "data_model_indicator_group_members_group_id_data_model_indicator_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."data_model_indicator_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_group_members" ADD CONSTRAINT "data_model_indicator_group_members_formula_id_formulas_id_fk" FOREIGN KEY ("formula_id") REFERENCES "public"."formulas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_model_indicator_group_members" ADD CONSTRAINT "data_model_indicator_group_members_app_id_apps_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "data_models_app_code_version" ON "data_models" USING btree ("app_id","code","version");--> statement-breakpoint
CREATE INDEX "data_models_app_kind" ON "data_models" USING btree ("app_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "data_model_tables_model_name" ON "data_model_tables" USING btree ("model_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "data_model_variables_table_name" ON "data_model_variables" USING btree ("table_id","name");--> statement-breakpoint
CREATE INDEX "data_model_variables_model" ON "data_model_variables" USING btree ("model_id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_model_indicator_groups_app_name" ON "data_model_indicator_groups" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "data_model_indicator_group_members_formula" ON "data_model_indicator_group_members" USING btree ("formula_id");--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_models" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_model_tables" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_model_variables" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_model_indicator_groups" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
CREATE POLICY "app_scope" ON "data_model_indicator_group_members" AS PERMISSIVE FOR ALL TO public USING (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer) WITH CHECK (nullif(current_setting('crdp.app_id', true), '')::integer is null or app_id = nullif(current_setting('crdp.app_id', true), '')::integer);--> statement-breakpoint
ALTER TABLE "data_models" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_model_tables" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_model_variables" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_model_indicator_groups" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "data_model_indicator_group_members" FORCE ROW LEVEL SECURITY;
