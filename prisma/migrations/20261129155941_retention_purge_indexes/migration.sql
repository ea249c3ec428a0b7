-- CreateIndex
CREATE INDEX "customer_portal_sessions_created_at_idx" ON "customer_portal_sessions"("created_at");

-- CreateIndex
CREATE INDEX "dashboard_audit_log_created_at_idx" ON "dashboard_audit_log"("created_at");

-- CreateIndex
CREATE INDEX "dashboard_invitations_expires_at_idx" ON "dashboard_invitations"("expires_at");

-- CreateIndex
CREATE INDEX "dashboard_password_resets_expires_at_idx" ON "dashboard_password_resets"("expires_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_updated_at_idx" ON "webhook_deliveries"("status", "updated_at");
