"""Rulings kept with a game

Revision ID: 7b2e5c1a9f30
Revises: d4d51cf58c40
Create Date: 2026-11-23 23:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7b2e5c1a9f30"
down_revision = "d4d51cf58c40"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "kept_ruling",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("question", sa.Text(), nullable=False),
        sa.Column("verdict", sa.String(length=80), nullable=False),
        sa.Column("sentence", sa.Text(), nullable=False),
        sa.Column("rule", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_kept_ruling_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_kept_ruling")),
    )
    with op.batch_alter_table("kept_ruling", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_kept_ruling_game_id"), ["game_id"], unique=False)


def downgrade():
    with op.batch_alter_table("kept_ruling", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_kept_ruling_game_id"))
    op.drop_table("kept_ruling")
