-- Row-level security on app_id, second part (0021 enabled it and created the app_scope policies;
-- see src/db/README.md).
--
-- FORCE: without it the tables' owner skips the policies. Where the server connects as the owner
-- (and not as a superuser, who always skips them), forcing is what makes withAppScope's
-- crdp.app_id setting bind it; on the system path (setting unset) the policies let every row through.
ALTER TABLE "allergies" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "app_members" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "app_products" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "apps" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "audit_log" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "crf_form_versions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "crf_forms" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "crf_record_changes" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "crf_records" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "crf_uploads" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "diagnoses" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "disease_libraries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "disease_library_fill_log" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "disease_library_patients" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "disease_library_templates" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "diseases" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "exam_reports" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "free_access_keys" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "import_records" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "job_retries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "jobs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "lab_results" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mc_topic_cases" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mc_topic_centers" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mc_topic_status_log" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "mc_topics" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "module_config" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "notices" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "omop_mappings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "omop_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "omop_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "operations" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "orders" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "patients" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "physical_exams" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "qc_faults" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "qc_plans" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "qc_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "qc_task_rules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "qc_tasks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_datasets" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_enrolments" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_project_types" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_status_log" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_subjects" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "role_apps" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "roles" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "schedule_runs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "schedules" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "session_handoffs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "sessions" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "vis_charts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "vis_dashboards" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "visits" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "vital_signs" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
-- The role withAppScope switches to (SET LOCAL ROLE crdp_scoped) so that a superuser connection is
-- held to the policies too: NOLOGIN, data rights only (no DDL, no TRUNCATE), on every table and
-- sequence of this schema, now and later. Roles belong to the cluster, not to one database, so it is
-- created only when missing (CI and the tests make many databases on one server). A user without
-- CREATEROLE skips it with a NOTICE; withAppScope then only sets crdp.app_id, which binds a
-- connecting owner or other non-superuser through the forced policies (see src/db/README.md).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'crdp_scoped') THEN
    BEGIN
      CREATE ROLE crdp_scoped NOLOGIN;
    EXCEPTION
      WHEN insufficient_privilege THEN
        RAISE NOTICE 'crdp_scoped not created (% may not create roles): app scopes only set crdp.app_id', current_user;
      WHEN duplicate_object OR unique_violation THEN
        NULL; -- created at the same moment by the migration of another database
    END;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'crdp_scoped') THEN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO crdp_scoped', current_schema());
    EXECUTE format('GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA %I TO crdp_scoped', current_schema());
    EXECUTE format('GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA %I TO crdp_scoped', current_schema());
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO crdp_scoped', current_schema());
    EXECUTE format('ALTER DEFAULT PRIVILEGES IN SCHEMA %I GRANT USAGE, SELECT ON SEQUENCES TO crdp_scoped', current_schema());
    IF NOT pg_has_role(current_user, 'crdp_scoped', 'MEMBER') THEN
      BEGIN
        EXECUTE format('GRANT crdp_scoped TO %I', current_user);
      EXCEPTION
        WHEN insufficient_privilege THEN
          RAISE NOTICE '% may not take the role crdp_scoped: app scopes only set crdp.app_id', current_user;
      END;
    END IF;
  END IF;
END
$$;
