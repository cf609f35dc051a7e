-- An operator's action commits only while its operator still holds the role the back office's
-- door read, unlocked (docs/decisions/056-operator-acts-as-read.md). Every operator action
-- writes its audit row in the batch of its effect, so checking the row checks the action: a
-- role revoked or changed, or an account locked, by another admin between the door and the
-- batch refuses the whole batch. An action that changes its own operator's role or lock writes
-- its row first, while the role it was done under still stands. Asking WeChat Pay about an
-- order is the one action whose row follows its effect: what it records is WeChat Pay's answer,
-- settled as the cron would settle it, so its row is kept whatever became of the asker's role.
CREATE TRIGGER audit_operator_acts_as_read BEFORE INSERT ON audit_log
WHEN NEW.actor_kind = 'operator' AND NEW.action <> 'order.ask_wechat_pay' AND NOT EXISTS (
  SELECT 1 FROM operator_role JOIN user ON user.id = operator_role.user_id
  WHERE operator_role.user_id = NEW.actor_id AND operator_role.role = NEW.actor_role AND user.locked_at IS NULL
)
BEGIN
  SELECT RAISE(ABORT, 'operator_no_longer_acts');
END;
