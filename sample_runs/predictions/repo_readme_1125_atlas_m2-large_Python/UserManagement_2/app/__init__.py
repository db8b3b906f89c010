"""ProjectC user management microservice."""
