"""StructuredDataConvertor: Excel / CSV / PDF conversion service."""
