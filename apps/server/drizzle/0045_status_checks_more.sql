ALTER TABLE "cleaned_values" ADD CONSTRAINT "cleaned_values_fault" CHECK ("cleaned_values"."fault" in ('', 'out_of_range', 'unknown_unit', 'bad_number'));--> statement-breakpoint
ALTER TABLE "cleaning_rules" ADD CONSTRAINT "cleaning_rules_kind" CHECK ("cleaning_rules"."kind" in ('regex', 'syntactic'));--> statement-breakpoint
ALTER TABLE "clinical_rules" ADD CONSTRAINT "clinical_rules_status" CHECK ("clinical_rules"."status" in ('draft', 'published'));--> statement-breakpoint
ALTER TABLE "data_factory_entries" ADD CONSTRAINT "data_factory_entries_kind" CHECK ("data_factory_entries"."kind" in ('t0Event', 'diseaseLibrary', 'researchDataset', 'report'));--> statement-breakpoint
ALTER TABLE "data_model_variables" ADD CONSTRAINT "data_model_variables_coding_kind" CHECK ("data_model_variables"."coding_kind" in ('disease', 'surgery', 'lab', 'drug'));--> statement-breakpoint
ALTER TABLE "external_datasets" ADD CONSTRAINT "external_datasets_layout" CHECK ("external_datasets"."layout" in ('mimic_icu', 'generic'));--> statement-breakpoint
ALTER TABLE "record_qc_faults" ADD CONSTRAINT "record_qc_faults_severity" CHECK ("record_qc_faults"."severity" in ('warning', 'error'));--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_kind" CHECK ("rule_results"."kind" in ('fault', 'derive', 'tag', 'notify'));--> statement-breakpoint
ALTER TABLE "rule_results" ADD CONSTRAINT "rule_results_level" CHECK ("rule_results"."level" in ('', 'info', 'warning', 'error'));--> statement-breakpoint
ALTER TABLE "terminology_systems" ADD CONSTRAINT "terminology_systems_domain" CHECK ("terminology_systems"."domain" in ('disease', 'surgery', 'lab', 'drug'));