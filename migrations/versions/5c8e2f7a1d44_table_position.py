"""The last table read from a photo, kept with the round in progress

Revision ID: 5c8e2f7a1d44
Revises: 7b2e5c1a9f30
Create Date: 2026-11-26 18:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5c8e2f7a1d44"
down_revision = "7b2e5c1a9f30"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "table_position",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("round_n", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("position", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_table_position_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_table_position")),
    )


def downgrade():
    op.drop_table("table_position")
